import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Store } from '../../../lib/io/store/store.ts';
import { RecordingStore } from '../../../lib/io/store/recording-store.ts';
import { RunRecords, type RunRow } from '../../../lib/supervise/records/records.ts';
import { tempDir } from '../../helpers/cli.ts';
import { createRedactor } from '../../../lib/core/redact/redact.ts';
import { OutputTracker } from '../../../lib/supervise/output/output.ts';
import { createCodexAdapter } from '../../../lib/core/adapters/codex.ts';

const row = (name: string): RunRow => ({
  name,
  argv: ['agent'],
  cwd: '/',
  unit: null,
  invocationId: null,
  pid: process.pid,
  pidStartTime: null,
  token: `token-${name}`,
  adapter: 'generic',
  reviveOf: null,
});
const idle = (seconds: number) => `no output and an idle process tree for ${seconds}s`;

/** One run of `name` that stalls with `message`, as the supervisor records it; returns the incident id. */
function stallingRun(path: string, name: string, at: number, message: string): number {
  const sink = new RecordingStore({
    path,
    open: () => new Store(path),
    logger: { log: () => {} },
    wall: () => at,
    monotonic: () => 0,
  });
  const records = new RunRecords(sink, () => at);
  records.startRun(row(name));
  const incident = records.openIncident('OUTPUT_INACTIVITY', message, { processes: [], lastLines: [] });
  records.move(incident, 'escalate', 'a person must look');
  records.finishRun({ exitCode: 75, signal: null, outcome: 'stalled', reason: message });
  sink.close();
  return incident.id;
}

test('a restart that stalls again the same way adds a recurrence to the open incident', (t) => {
  const path = join(tempDir(t), 'deadman.db');
  const ids = [1, 2, 3, 4, 5].map((n) => stallingRun(path, 'loop', n * 1000, idle(30 + n)));
  assert.deepEqual(new Set(ids).size, 1, `one incident for one stall loop, got ${ids}`);
  const store = new Store(path, { readOnly: true });
  const recurrences = store.all<{ at: number; run_id: number }>(
    'SELECT at, run_id FROM incident_recurrences ORDER BY at',
  );
  assert.deepEqual(
    recurrences.map((r) => r.at),
    [2000, 3000, 4000, 5000],
  );
  assert.equal(store.get<{ n: number }>('SELECT count(*) AS n FROM runs')!.n, 5);
  const transitions = store.all<{ from_state: string | null; to_state: string }>(
    'SELECT from_state, to_state FROM incident_transitions ORDER BY id',
  );
  assert.deepEqual(
    transitions.slice(0, 4).map((r) => `${r.from_state}>${r.to_state}`),
    ['null>OPEN', 'OPEN>ESCALATED', 'ESCALATED>OPEN', 'OPEN>ESCALATED'],
  );
  assert.equal(store.get<{ state: string }>('SELECT state FROM incidents')!.state, 'ESCALATED');
  store.close();
});

test('another run name, another kind of stall, or a resolved incident opens a new one', (t) => {
  const path = join(tempDir(t), 'deadman.db');
  const first = stallingRun(path, 'loop', 1000, idle(30));
  assert.notEqual(stallingRun(path, 'other', 2000, idle(30)), first);
  assert.notEqual(stallingRun(path, 'loop', 3000, 'wall-time limit of 1h reached'), first);
  const store = new Store(path);
  store.update('incidents', first, { state: 'RESOLVED' });
  store.close();
  assert.notEqual(stallingRun(path, 'loop', 4000, idle(30)), first);
});

/** Batching whose flush timer the test fires by hand. */
function manualTimer(maxQueued = 500) {
  const due: Array<() => void> = [];
  return {
    options: { flushMs: 100, maxQueued, schedule: (flush: () => void) => void due.push(flush) },
    fire: () => due.splice(0).forEach((flush) => flush()),
  };
}

test("events wait in a bounded queue: one batch per flush, the overflow counted as dropped, the rest flushed at the run's end", (t) => {
  const path = join(tempDir(t), 'deadman.db');
  const sink = new RecordingStore({
    path,
    open: () => new Store(path),
    logger: { log: () => {} },
    wall: () => 5,
    monotonic: () => 0,
  });
  const timer = manualTimer(3);
  const records = new RunRecords(sink, () => 5, timer.options);
  records.startRun(row('chatty'));
  const reader = new Store(path, { readOnly: true });
  const events = () =>
    reader.all<{ kind: string; raw: string; data: { dropped: number; total: number } | null }>(
      'SELECT kind, raw, data FROM events ORDER BY id',
    );
  for (let i = 0; i < 5; i++) records.event('stdout', 'line', `line ${i}`, false, null);
  assert.deepEqual(events(), [], 'nothing is written while the output flows');
  timer.fire();
  const first = events();
  assert.deepEqual(
    first.slice(0, 3).map((e) => e.raw),
    ['line 0', 'line 1', 'line 2'],
  );
  assert.equal(first[3]?.kind, 'dropped');
  assert.deepEqual(first[3]?.data, { dropped: 2, total: 2 });
  records.event('stdout', 'line', 'last words', false, null);
  records.finishRun({ exitCode: 0, signal: null, outcome: 'completed', reason: 'exited 0' });
  assert.deepEqual(
    events()
      .slice(4)
      .map((e) => e.raw),
    ['last words'],
    "the run's end flushes what is queued, no timer needed",
  );
  reader.close();
  sink.close();
});

test('rows written while the store was down follow once it is back: the run row first', (t) => {
  const path = join(tempDir(t), 'deadman.db');
  let up = false;
  const clock = { now: 0 };
  const sink = new RecordingStore({
    path,
    logger: { log: () => {} },
    wall: () => 7,
    monotonic: () => clock.now,
    retryMs: 10,
    open: () => {
      if (!up) throw Object.assign(new Error('unable to open database file'), { errcode: 14 });
      return new Store(path);
    },
  });
  const timer = manualTimer();
  const records = new RunRecords(sink, () => 7, timer.options);
  records.startRun(row('late'));
  records.update({ session_id: 'abc' });
  assert.equal(records.id, null);
  up = true;
  clock.now = 10;
  records.event('stdout', 'line', 'hello', false, null);
  timer.fire();
  assert.notEqual(records.id, null);
  sink.close();
  const store = new Store(path, { readOnly: true });
  assert.deepEqual(store.all('SELECT name, session_id FROM runs'), [{ name: 'late', session_id: 'abc' }]);
  assert.deepEqual(store.all('SELECT raw FROM events'), [{ raw: 'hello' }]);
  store.close();
});

test('a hung tool with a secret in its argv still recurs: the fingerprint is compared as stored (redacted)', (t) => {
  const path = join(tempDir(t), 'deadman.db');
  const target = {
    pid: 10,
    ppid: 1,
    pgid: 10,
    sid: 10,
    startTime: 1,
    state: 'S',
    comm: 'curl',
    cmdline: ['curl', '-H', 'Authorization: Bearer abcdefgh12345678'],
    cpuTicks: 0,
    ioBytes: 0,
    listening: false,
  };
  const hung = (at: number) => {
    const open = () => new Store(path, { redactor: createRedactor() });
    const sink = new RecordingStore({ path, open, logger: { log: () => {} }, wall: () => at, monotonic: () => 0 });
    const records = new RunRecords(sink, () => at);
    records.startRun(row('hung'));
    const incident = records.openIncident('HUNG_PROCESS', `curl (pid ${at}) idle`, {
      processes: [target],
      lastLines: [],
      target: { ...target, pid: at },
    });
    records.move(incident, 'approval_required', 'auto_recover is off');
    sink.close();
    return incident.id;
  };
  assert.equal(hung(1), hung(2));
  const store = new Store(path, { readOnly: true });
  assert.doesNotMatch(JSON.stringify(store.all('SELECT fingerprint FROM incidents')), /abcdefgh12345678/);
  store.close();
});

test('the next start closes a run whose deadman died: its row ends lost, its waiting incident is ABANDONED with why; a live one is left alone', (t) => {
  const path = join(tempDir(t), 'deadman.db');
  const sink = new RecordingStore({
    path,
    open: () => new Store(path),
    logger: { log: () => {} },
    wall: () => 1_000,
    monotonic: () => 0,
  });
  const dead = new RunRecords(sink, () => 1_000);
  dead.startRun({ ...row('job'), pid: 999_999 });
  const waiting = dead.openIncident('HUNG_PROCESS', 'sleep 600 idle for 2s', { processes: [], lastLines: [] });
  dead.move(waiting, 'approval_required', 'recovery is off');
  const live = new RunRecords(sink, () => 1_500);
  live.startRun(row('job'));
  const next = new RunRecords(sink, () => 2_000);
  next.closeOrphans('job', (run) => run.pid === process.pid);
  sink.close();
  const store = new Store(path, { readOnly: true });
  assert.deepEqual(
    store
      .all<{ pid: number; ended_at: number | null; outcome: string | null; signal: string | null }>(
        'SELECT pid, ended_at, outcome, signal FROM runs ORDER BY id',
      )
      .map((r) => ({ ...r })),
    [
      { pid: 999_999, ended_at: 2_000, outcome: 'lost', signal: 'unknown' },
      { pid: process.pid, ended_at: null, outcome: null, signal: null },
    ],
  );
  assert.equal(store.get<{ state: string }>('SELECT state FROM incidents')!.state, 'ABANDONED');
  assert.match(
    store.get<{ reason: string }>('SELECT reason FROM incident_transitions ORDER BY id DESC LIMIT 1')!.reason,
    /^deadman \(pid 999999\) of run #1 is gone without recording an end/,
  );
  store.close();
});

test('a long line of output is cut to its recorded length only once redacted: a secret across the cut leaves not even its head', (t) => {
  const path = join(tempDir(t), 'deadman.db');
  const secret = 'S3cr3tV4lu3Zq9xW';
  const redactor = createRedactor({ env: { ACME_SIGNING_SECRET_V2: secret } });
  const sink = new RecordingStore({
    path,
    open: () => new Store(path, { redactor }),
    logger: { log: () => {} },
    wall: () => 5,
    monotonic: () => 0,
  });
  const records = new RunRecords(sink, () => 5);
  records.startRun(row('long'));
  const codex = createCodexAdapter();
  const output = new OutputTracker(0, () => codex, records, { onSession: () => {} });
  for (const offset of [4, 8, 12])
    output.line(
      'stdout',
      { text: `${'x '.repeat(2048).slice(0, 4096 - offset)}${secret} and the rest`, truncated: false },
      1,
    );
  records.finishRun({ exitCode: 0, signal: null, outcome: 'completed', reason: 'exited 0' });
  sink.close();
  const store = new Store(path, { readOnly: true });
  const raws = store.all<{ raw: string; truncated: number }>(
    "SELECT raw, truncated FROM events WHERE kind = 'line' ORDER BY id",
  );
  store.close();
  assert.equal(raws.length, 3);
  for (const { raw, truncated } of raws) {
    assert.equal(truncated, 1);
    assert.ok(raw.length <= 4096, `${raw.length}`);
    assert.ok(!raw.includes(secret.slice(0, 4)), raw.slice(-40));
  }
});
