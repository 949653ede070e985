import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claudeRateLimited, codexRateLimited } from './model-server/backend-errors.ts';
import type { Cli } from './harness/clis.ts';
import { narrate, runs } from './harness/records.ts';
import { runScenario } from './harness/scenario.ts';
import { skipUnlessAgent } from './harness/skip.ts';

/**
 * A throttle, not the plan's limit (Codex: 429 rate_limit_exceeded, "try again in 1.898s";
 * Claude Code with an API key: 429 rate_limit_error, retried on its api_retry path). Each CLI
 * retries once by itself (retries = 1), meets the throttle again and gives up, exit 1. deadman
 * backs off and resumes the session, never exit 69, and the resumed turn completes.
 */

for (const cli of ['codex', 'claude'] as Cli[]) {
  test(
    `${cli}: a throttle that outlasts the CLI's own retry is backed off and resumed to exit 0`,
    { skip: skipUnlessAgent(cli) },
    async (t) => {
      const throttled = cli === 'codex' ? codexRateLimited : claudeRateLimited;
      const { run, server } = await runScenario(
        t,
        cli,
        [throttled, throttled, { kind: 'text', text: 'Through the throttle; done.' }],
        ['--timeout', '120s'],
        { retries: 1, config: '[usage_limit]\nbackoff = "2s"\njitter = "200ms"' },
      );
      const finished = await run.finished;
      narrate(t, finished);
      const printed =
        cli === 'codex'
          ? /"Reconnecting\.\.\. 1\/1 \(exceeded retry limit, last status: 429 Too Many Requests\)"/
          : /"subtype":"api_retry","attempt":1,"max_retries":1,[^\n]*"error_status":429,"error":"rate_limit"/;
      assert.match(finished.stdout, printed, 'the CLI retried by itself first');
      assert.equal(finished.code, 0, finished.stderr);
      assert.equal(server.turns().length, 3, 'the request, its retry by the CLI, then the resumed session');
      const recorded = runs(run.database);
      assert.equal(recorded.at(-1)?.outcome, 'completed');
      assert.ok(
        recorded.length >= 2 && recorded.every((r) => r.session_id === recorded[0]!.session_id),
        `one session, resumed: ${JSON.stringify(recorded)}`,
      );
    },
  );
}
