import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { repoRoot, runDeadman, tempDir } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { measureHostDelay } from '../helpers/host-delay.ts';

const fakeAgent = join(repoRoot, 'dist', 'lib', 'demo', 'fake-agent.js');
const SEED = `python3 -c 'import subprocess; raise SystemExit(subprocess.Popen(["sleep","600"]).wait())'`;

function codexRun(t: { after(fn: () => void): void }, flags: string[], tool: string) {
  const dir = tempDir(t);
  const database = join(dir, 'deadman.db');
  const env = {
    ...process.env,
    STATE_DIRECTORY: dir,
    NOTIFY_SOCKET: '',
    FAKE_AGENT_SCENARIO: 'hang-tool',
    FAKE_AGENT_TOOL: tool,
  };
  const host = measureHostDelay();
  const started = performance.now();
  const result = runDeadman(
    [
      'run',
      '--database',
      database,
      '--adapter',
      'codex',
      '--poll',
      '250ms',
      ...flags,
      '--',
      process.execPath,
      fakeAgent,
      'codex',
      'exec',
      '--json',
      'fix the tests',
    ],
    { env, cwd: dir },
  );
  return { database, started, result, host };
}

test('seed: the hung python/sleep tool subtree is killed, the agent carries on, the incident is RESOLVED', async (t) => {
  const { database, started, result, host } = codexRun(
    t,
    ['--auto-recover', '--hung-timeout', '3s', '--kill-grace', '1s', '--inactivity', '1min'],
    SEED,
  );
  const finished = await result;
  const elapsed = performance.now() - started;
  assert.equal(finished.code, 0, finished.stderr);
  const events = finished.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; item?: { exit_code: number } });
  const completed = events.find((e) => e.type === 'item.completed');
  assert.ok(completed && completed.item!.exit_code !== 0, 'the agent got a failed tool result');
  assert.equal(events.at(-1)?.type, 'turn.completed', 'the agent printed its final event');
  assert.ok(
    elapsed < 3000 + 1000 + host.scaled(250 + 1000 + 2500),
    `took ${elapsed.toFixed(0)} ms (host ${host.stretch().toFixed(1)}× slower than idle)`,
  );

  const [incident] = query<{ id: number; kind: string; state: string }>(
    database,
    'SELECT id, kind, state FROM incidents',
  );
  assert.deepEqual({ ...incident, id: 0 }, { id: 0, kind: 'HUNG_PROCESS', state: 'RESOLVED' });
  const [action] = query<{
    kind: string;
    result: string;
    target: { cmdline: string[] };
    detail: { killed: number[]; survived: number[] };
  }>(database, 'SELECT kind, result, target, detail FROM actions');
  assert.equal(action?.kind, 'TERMINATE_DESCENDANT_PROCESS');
  assert.ok(action!.detail.killed.length >= 2, `killed ${JSON.stringify(action!.detail)}`);
  assert.deepEqual(action!.detail.survived, []);
  assert.match(action!.target.cmdline.join(' '), /bash -c python3|python3/);
  const states = query<{ to_state: string }>(
    database,
    'SELECT to_state FROM incident_transitions WHERE incident_id = ? ORDER BY id',
    incident!.id,
  ).map((r) => r.to_state);
  assert.deepEqual(states, ['OPEN', 'RECOVERING', 'VERIFYING', 'RESOLVED']);
});

test('without --auto-recover nothing is signalled: the incident waits in AWAITING_APPROVAL, ABANDONED when the run ends', async (t) => {
  const { database, result } = codexRun(
    t,
    ['--hung-timeout', '2s', '--inactivity', '5s', '--stop-grace', '1s'],
    'sleep 600',
  );
  const finished = await result;
  assert.equal(finished.code, 75, 'the run stalls later by inactivity and exits 75');
  const incidents = query<{ kind: string; state: string }>(database, 'SELECT kind, state FROM incidents ORDER BY id');
  assert.deepEqual(
    incidents.map((i) => ({ ...i })),
    [
      { kind: 'HUNG_PROCESS', state: 'ABANDONED' },
      { kind: 'OUTPUT_INACTIVITY', state: 'ESCALATED' },
    ],
  );
  const hung = query<{ to_state: string; reason: string }>(
    database,
    'SELECT to_state, reason FROM incident_transitions WHERE incident_id = 1 ORDER BY id',
  );
  assert.deepEqual(
    hung.map((r) => r.to_state),
    ['OPEN', 'AWAITING_APPROVAL', 'ABANDONED'],
  );
  assert.equal(hung[2]!.reason, 'the run ended (stalled) before this incident was settled');
  assert.equal(query(database, 'SELECT id FROM actions').length, 0, 'no action was taken');
  assert.match(finished.stderr, /AWAITING_APPROVAL: recovery is off: run with --auto-recover/);
});
