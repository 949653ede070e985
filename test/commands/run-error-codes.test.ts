import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { fakeAgent } from '../helpers/fake-agent.ts';

/**
 * A run stopped for silence carries a stable error code a caller can branch on — in the runs
 * and incidents rows, `report --json` and `status --json` — and its message names the agent:
 * "no codex output for 2s".
 */

test('a silent codex: error_code output_inactivity in the records, report --json and status --json; the message names codex', async (t) => {
  const dir = tempDir(t);
  const database = join(dir, 'deadman.db');
  const env = { ...process.env, STATE_DIRECTORY: dir, NOTIFY_SOCKET: '', FAKE_AGENT_SCENARIO: 'silent' };
  const run = await runDeadman(
    [
      'run',
      '--name',
      'quiet',
      '--database',
      database,
      '--inactivity',
      '2s',
      '--poll',
      '200ms',
      '--stop-grace',
      '1s',
      '--',
      process.execPath,
      fakeAgent,
      'codex',
      'exec',
      '--json',
      'the task',
    ],
    { env, cwd: dir },
  );
  assert.equal(run.code, 75, run.stderr);
  assert.match(run.stderr, /OUTPUT_INACTIVITY: no codex output for 2s/);
  assert.deepEqual(
    query<{ outcome: string; error_code: string }>(database, 'SELECT outcome, error_code FROM runs').map((r) => ({
      ...r,
    })),
    [{ outcome: 'stalled', error_code: 'output_inactivity' }],
  );
  assert.deepEqual(
    query<{ error_code: string }>(database, 'SELECT error_code FROM incidents').map((r) => r.error_code),
    ['output_inactivity'],
  );
  const report = await runDeadman(['report', 'latest', '--json', '--database', database], { env, cwd: dir });
  assert.equal(report.code, 0, report.stderr);
  const json = JSON.parse(report.stdout) as { error_code: string; run: { error_code: string } };
  assert.equal(json.error_code, 'output_inactivity');
  assert.equal(json.run.error_code, 'output_inactivity');
  const status = await runDeadman(['status', '--json', '--database', database], { env, cwd: dir });
  const rows = JSON.parse(status.stdout) as Array<{ name: string; error_code: string | null }>;
  assert.deepEqual(
    rows.map((r) => [r.name, r.error_code]),
    [['quiet', 'output_inactivity']],
  );
});
