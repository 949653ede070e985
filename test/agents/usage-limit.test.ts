import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claudeUsageLimit, codexUsageLimit } from './model-server/backend-errors.ts';
import type { Cli } from './harness/clis.ts';
import { actionKinds, incidents, narrate, runs } from './harness/records.ts';
import { PROMPT, runScenario } from './harness/scenario.ts';
import { skipUnlessAgent } from './harness/skip.ts';

/**
 * The plan's window spent, with a reset a few seconds ahead (Codex: 429 usage_limit_reached
 * with resets_at; Claude Code under a subscription login: 429 with the unified rate-limit
 * headers, which it prints as a rejected rate_limit_event). Both CLIs exit 1 at once; deadman
 * waits for the reset in-process, resumes the same session, and the resumed turn completes.
 */

const RESET_S = 8;

for (const cli of ['codex', 'claude'] as Cli[]) {
  test(
    `${cli}: a usage limit ${RESET_S} s ahead is waited out and the session resumed to exit 0`,
    { skip: skipUnlessAgent(cli) },
    async (t) => {
      const limit = cli === 'codex' ? codexUsageLimit(RESET_S) : claudeUsageLimit(RESET_S);
      const { run, server } = await runScenario(
        t,
        cli,
        [limit, { kind: 'text', text: 'Resumed after the reset; done.' }],
        ['--timeout', '150s'],
        { subscription: true, config: '[usage_limit]\nmax_wait = "2min"\njitter = "500ms"' },
      );
      const finished = await run.finished;
      narrate(t, finished);
      assert.equal(finished.code, 0, finished.stderr);
      assert.match(finished.stderr, /waiting for usage limit reset/);
      assert.deepEqual(incidents(run.database), [{ kind: 'USAGE_LIMIT', state: 'RESOLVED' }]);
      assert.deepEqual(actionKinds(run.database), ['WAIT_FOR_USAGE_RESET']);
      const [limited, resumed] = runs(run.database);
      assert.equal(limited?.outcome, 'usage-limit');
      assert.equal(resumed?.outcome, 'completed');
      assert.equal(resumed?.session_id, limited?.session_id, 'the resumed run is the same session');
      const turns = server.turns();
      assert.equal(turns.length, 2, 'the limited request, then the resumed one');
      const waited = turns[1]!.at - turns[0]!.at;
      assert.ok(waited >= (RESET_S - 2) * 1000, `resumed only near the reset (${waited} ms later)`);
      assert.ok(JSON.stringify(turns[1]!.body).includes(PROMPT), 'the resumed request carries the conversation so far');
    },
  );
}
