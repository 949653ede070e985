import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { Store } from '../../../lib/io/store/store.ts';
import { RecordingStore } from '../../../lib/io/store/recording-store.ts';
import { RunRecords, type RunRow } from '../../../lib/supervise/records/records.ts';
import { tempDir } from '../../helpers/cli.ts';

/**
 * An incident opened in a database that was then deleted under the run: its row went with the
 * file, so its follow-up must not land on whatever row has its number in the fresh database,
 * nor fail on a missing one (which took recording down for 30 s and dropped what came after).
 */

const row: RunRow = {
  name: 'job',
  argv: ['agent'],
  cwd: '/',
  unit: null,
  invocationId: null,
  pid: process.pid,
  pidStartTime: null,
  token: 'token-job',
  adapter: 'generic',
  reviveOf: null,
};
const evidence = { processes: [], lastLines: [] };

function deletedUnderTheRun(t: { after: (fn: () => void) => void }) {
  const path = join(tempDir(t as never), 'deadman.db');
  const warnings: string[] = [];
  const sink = new RecordingStore({
    path,
    open: () => new Store(path),
    logger: { log: (_level, line) => warnings.push(line) },
    wall: () => 1000,
    monotonic: () => 0,
  });
  const records = new RunRecords(sink, () => 1000);
  records.startRun(row);
  const before = records.openIncident('OUTPUT_INACTIVITY', 'no output for 30s', evidence);
  records.move(before, 'recovery_allowed', 'policy allowed it');
  rmSync(path);
  sink.notice();
  return { path, sink, records, before, warnings };
}

const transitionsOf = (store: Store, id: number) =>
  store
    .all<{ from_state: string | null; to_state: string }>(
      'SELECT from_state, to_state FROM incident_transitions WHERE incident_id = ? ORDER BY id',
      id,
    )
    .map((r) => `${r.from_state}>${r.to_state}`);

test('an incident of a deleted database is carried into the fresh one, state kept, and its follow-up lands on it', (t) => {
  const { path, sink, records, before, warnings } = deletedUnderTheRun(t);
  const after = records.openIncident('HUNG_PROCESS', 'sleep 600 hung', evidence);
  records.move(before, 'escalate', 'a person must look');
  records.decision(before, { action: 'REPORT', verdict: 'allowed', reason: 'report only' } as never);
  records.finishRun({ exitCode: 0, signal: null, outcome: 'completed', reason: 'exit 0' });
  sink.close();
  const store = new Store(path, { readOnly: true });
  t.after(() => store.close());
  assert.notEqual(before.id, after.id, 'two incidents, two rows');
  assert.deepEqual(
    transitionsOf(store, after.id),
    ['null>OPEN', 'OPEN>ABANDONED'],
    'the new incident holds only its own transitions',
  );
  assert.deepEqual(
    transitionsOf(store, before.id),
    ['null>RECOVERING', 'RECOVERING>ESCALATED'],
    'carried in with the state it had, then its follow-up',
  );
  const carried = store.get<{ kind: string; message: string; state: string }>(
    'SELECT kind, message, state FROM incidents WHERE id = ?',
    before.id,
  )!;
  assert.deepEqual(carried, { kind: 'OUTPUT_INACTIVITY', message: 'no output for 30s', state: 'ESCALATED' });
  assert.equal(store.get<{ n: number }>('SELECT count(*) AS n FROM decisions WHERE incident_id = ?', before.id)!.n, 1);
  assert.deepEqual(
    warnings.filter((line) => line.startsWith('not recording')),
    [],
    'recording never went down',
  );
});

test('a carried incident says where it came from', (t) => {
  const { path, sink, records, before } = deletedUnderTheRun(t);
  records.move(before, 'escalate', 'a person must look');
  sink.close();
  const store = new Store(path, { readOnly: true });
  t.after(() => store.close());
  const first = store.get<{ reason: string }>(
    'SELECT reason FROM incident_transitions WHERE incident_id = ? ORDER BY id LIMIT 1',
    before.id,
  )!;
  assert.match(first.reason, /carried over: opened .* in a database that was replaced under the run/);
});
