import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { deadmanBin, repoRoot, runDeadman, tempDir, waitFor } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';

/**
 * `deadman approve ID` / `deadman deny ID` answer an incident AWAITING_APPROVAL of a running
 * deadman (no --auto-recover, a hung tool): the answer goes through the state directory, the
 * run acts on it at its next poll, and the incident's timeline says who answered and when.
 */
const fakeAgent = join(repoRoot, 'dist', 'lib', 'demo', 'fake-agent.js');

function startHungRun(t: { after(fn: () => void): void }) {
  const dir = tempDir(t);
  const database = join(dir, 'deadman.db');
  const env = {
    ...process.env,
    STATE_DIRECTORY: dir,
    DEADMAN_CONFIG: '',
    NOTIFY_SOCKET: '',
    FAKE_AGENT_SCENARIO: 'hang-tool',
    FAKE_AGENT_TOOL: 'sleep 600',
  };
  const child = spawn(
    process.execPath,
    [
      deadmanBin,
      'run',
      '--database',
      database,
      '--adapter',
      'codex',
      '--poll',
      '250ms',
      '--hung-timeout',
      '2s',
      '--kill-grace',
      '1s',
      '--stop-grace',
      '1s',
      '--inactivity',
      '1min',
      '--',
      process.execPath,
      fakeAgent,
      'codex',
      'exec',
      '--json',
      'fix the tests',
    ],
    { env, cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  t.after(() => child.kill('SIGKILL'));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const awaiting = async () =>
    Number(
      (
        await waitFor(
          () =>
            /incident (\d+) AWAITING_APPROVAL: .*deadman approve \1 --state-dir \S+ \(kill it\) or deadman deny \1 --state-dir /.exec(
              stderr,
            ),
          15_000,
          'AWAITING_APPROVAL',
        )
      )[1],
    );
  const answer = (verb: string, id: number) => runDeadman([verb, String(id), '--database', database], { env });
  return { child, database, exited, awaiting, answer, log: () => stderr };
}

function timeline(database: string, id: number) {
  return query<{ to_state: string; reason: string }>(
    database,
    'SELECT to_state, reason FROM incident_transitions WHERE incident_id = ? ORDER BY id',
    id,
  );
}

test('deadman approve lets the running deadman kill the hung tool; the agent finishes and the approval is in the timeline', async (t) => {
  const run = startHungRun(t);
  const id = await run.awaiting();
  const report = await runDeadman(['report', String(id), '--database', run.database]);
  assert.match(
    report.stdout,
    new RegExp(`^  answer: deadman approve ${id} \\(kill the hung subtree\\) · deadman deny ${id}`, 'm'),
    report.stdout,
  );
  const approved = await run.answer('approve', id);
  assert.equal(approved.code, 0, approved.stderr);
  assert.match(approved.stdout, new RegExp(`^approved incident ${id} as \\S+ \\(uid \\d+`));
  assert.equal(await run.exited, 0, run.log());
  const states = timeline(run.database, id);
  assert.deepEqual(
    states.map((s) => s.to_state),
    ['OPEN', 'AWAITING_APPROVAL', 'RECOVERING', 'VERIFYING', 'RESOLVED'],
  );
  assert.match(states[2]!.reason, /^approved by \S+ \(uid \d+.*\) at \d{4}-\d\d-\d\dT[\d:.]+Z$/);
  assert.deepEqual(
    query<{ kind: string }>(run.database, 'SELECT kind FROM actions').map((a) => a.kind),
    ['TERMINATE_DESCENDANT_PROCESS'],
  );
  const again = await run.answer('approve', id);
  assert.equal(again.code, 1);
  assert.match(again.stderr, new RegExp(`incident ${id} is RESOLVED, not AWAITING_APPROVAL`));
});

test('deadman deny leaves the subtree alone: ESCALATED with who and when, no action, no stall', async (t) => {
  const run = startHungRun(t);
  const id = await run.awaiting();
  assert.equal((await run.answer('deny', id)).code, 0);
  await waitFor(() => run.log().includes(`incident ${id} denied by `), 10_000, 'the run to take the denial');
  const [, , denied] = timeline(run.database, id);
  assert.equal(denied?.to_state, 'ESCALATED');
  assert.match(denied!.reason, /^denied by \S+ \(uid \d+.*\) at \d{4}-.*Z: the subtree is left alone$/);
  run.child.kill('SIGTERM');
  await run.exited;
  assert.equal(
    query(run.database, 'SELECT id FROM actions').length,
    0,
    'nothing was signalled for the denied incident',
  );
  const [outcome] = query<{ outcome: string }>(run.database, 'SELECT outcome FROM runs');
  assert.notEqual(outcome?.outcome, 'stalled', 'a denial is not a stall');
  assert.doesNotMatch(run.log(), /HUNG_PROCESS: .*kill refused|ESCALATED.*stall/);
});

test('an unknown incident is a usage error; without a database there is nothing to answer', async (t) => {
  const dir = tempDir(t);
  const env = { ...process.env, STATE_DIRECTORY: dir, DEADMAN_CONFIG: '' };
  const none = await runDeadman(['approve', '7'], { env });
  assert.equal(none.code, 64);
  assert.match(none.stderr, /no database at /);
  const bad = await runDeadman(['deny', 'x'], { env });
  assert.equal(bad.code, 64);
});
