import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { IncidentTransition } from '../../../lib/core/alerts/alert-planner.ts';
import { AlertPlanner } from '../../../lib/core/alerts/alert-planner.ts';
import { Store } from '../../../lib/io/store/store.ts';
import { RecordingStore } from '../../../lib/io/store/recording-store.ts';
import { RunRecords, type RunRow } from '../../../lib/supervise/records/records.ts';
import { tempDir } from '../../helpers/cli.ts';

/**
 * The run's alerts hear every incident transition from the records, including those no tick
 * makes: a spent revive budget (HALT_AND_ESCALATE of a refused run) and a refused revive marker
 * (REVIVE_REFUSED, opened with the run's row). Both need a person, so both are alerts.
 */
const row: RunRow = {
  name: 'review',
  argv: ['agent'],
  cwd: '/',
  unit: null,
  invocationId: null,
  pid: process.pid,
  pidStartTime: null,
  token: 'review-token',
  adapter: 'none',
  reviveOf: null,
};
const settings = { events: ['fail', 'incident'] as const, minIntervalMs: 0, reminderMs: 0 };

function recording(t: { after(fn: () => void): void }) {
  const path = join(tempDir(t), 'deadman.db');
  const sink = new RecordingStore({
    path,
    open: () => new Store(path),
    logger: { log: () => {} },
    wall: () => 1_000,
    monotonic: () => 0,
  });
  t.after(() => sink.close());
  const heard: IncidentTransition[] = [];
  return {
    records: new RunRecords(
      sink,
      () => 1_000,
      undefined,
      (transition) => heard.push(transition),
    ),
    heard,
  };
}

test('a spent revive budget and a refused marker are heard as ESCALATED, and the planner alerts on both', (t) => {
  const budget = recording(t);
  budget.records.refusedRun(row, {
    exitCode: 69,
    outcome: 'revive-exhausted',
    reason: 'revive budget spent: 5 of 5',
    halt: true,
  });
  const marker = recording(t);
  marker.records.refusedMarker('review', 'markers/review.json: not written by this user');
  marker.records.startRun(row);
  const heard = [...budget.heard, ...marker.heard];
  assert.deepEqual(
    heard.map((h) => [h.incident.kind, h.from, h.incident.state, h.event]),
    [
      ['HALT_AND_ESCALATE', 'OPEN', 'ESCALATED', 'escalate'],
      ['REVIVE_REFUSED', 'OPEN', 'ESCALATED', 'escalate'],
    ],
  );
  const planner = new AlertPlanner({ name: 'review', host: 'box', answers: () => [] }, {});
  const alerts = heard.flatMap((h) => planner.moved(h, 1_000, settings));
  assert.deepEqual(
    alerts.map((a) => [a.incident?.kind, a.reason]),
    [
      ['HALT_AND_ESCALATE', 'a person must look before the session is prompted again'],
      ['REVIVE_REFUSED', 'nothing from the marker was run: a person must find out who wrote or changed it'],
    ],
  );
});

test('a transition that does not apply is not heard', (t) => {
  const { records, heard } = recording(t);
  records.startRun(row);
  const incident = records.openIncident('OUTPUT_INACTIVITY', 'quiet', { processes: [], lastLines: [] });
  assert.equal(records.move(incident, 'verified', 'not from OPEN'), false);
  assert.deepEqual(heard, []);
});
