import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claudeCreditTooLow, codexInsufficientQuota } from './model-server/backend-errors.ts';
import type { Cli } from './harness/clis.ts';
import { alertsSent, narrate, runs } from './harness/records.ts';
import { runScenario } from './harness/scenario.ts';
import { skipUnlessAgent } from './harness/skip.ts';
import { query } from '../helpers/db.ts';

/**
 * Spent credit (Codex: 429 insufficient_quota, "Quota exceeded. Check your plan and billing
 * details."; Claude Code: 400 "Your credit balance is too low", a billing_error): waiting
 * cannot help, a person must add credit. deadman exits 69 (do not restart) with the cause
 * `credit_exhausted`, sends one alert, and never revives the session into the same wall.
 */

for (const cli of ['codex', 'claude'] as Cli[]) {
  test(
    `${cli}: spent credit ends 69 credit_exhausted, one alert, no revive`,
    { skip: skipUnlessAgent(cli) },
    async (t) => {
      const spent = cli === 'codex' ? codexInsufficientQuota : claudeCreditTooLow;
      const { dir, run, server } = await runScenario(
        t,
        cli,
        [spent, { kind: 'text', text: 'A revive that must not happen.' }],
        ['--timeout', '60s'],
      );
      const finished = await run.finished;
      narrate(t, finished);
      const printed =
        cli === 'codex'
          ? /"message":"Quota exceeded\. Check your plan and billing details\."/
          : /"error":"billing_error"[^\n]*"Credit balance is too low"|"Credit balance is too low"[^\n]*"error":"billing_error"/;
      assert.match(finished.stdout, printed);
      assert.equal(server.turns().length, 1, 'the session was not resumed into the same wall');
      assert.equal(runs(run.database).length, 1);
      assert.equal(query(run.database, 'SELECT id FROM revives').length, 0);
      assert.equal(finished.code, 69, finished.stderr);
      assert.match(finished.stderr, /credit_exhausted/);
      const alerts = alertsSent(dir);
      assert.equal(alerts.length, 1, JSON.stringify(alerts));
      assert.match(JSON.stringify(alerts[0]), /credit/i);
    },
  );
}
