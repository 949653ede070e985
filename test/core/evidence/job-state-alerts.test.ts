import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jobStateAlerts, noteAlerted, type AlertedStates } from '../../../lib/core/evidence/job-state-alerts.ts';
import type { JobVerdict, VerdictState } from '../../../lib/core/evidence/evidence.ts';

const T = Date.UTC(2026, 11, 7, 2, 0, 0);
const job = (name: string, verdict: VerdictState, reason = `${name} is ${verdict}`): JobVerdict => ({
  job: name,
  verdict,
  claims: [{ claim: 'c', kind: 'file', verdict, reason }],
});
const EVENTS = ['fail', 'incident'] as const;

test('a dead or unknown job is alerted once as a fail; the same state again is not', () => {
  const first = jobStateAlerts(
    [job('export', 'dead'), job('backup', 'unknown'), job('ok', 'alive')],
    {},
    'h',
    T,
    EVENTS,
  );
  assert.deepEqual(
    first.map((a) => [a.job, a.state, a.alert.event, a.alert.outcome, a.alert.source]),
    [
      ['export', 'dead', 'fail', 'dead', 'check'],
      ['backup', 'unknown', 'fail', 'unknown', 'check'],
    ],
  );
  assert.equal(first[0]!.alert.reason, 'export is dead');
  assert.equal(first[0]!.alert.at, '2026-12-07T02:00:00.000Z');
  let alerted: AlertedStates = {};
  for (const a of first) alerted = noteAlerted(alerted, a.job, a.state, T);
  assert.deepEqual(
    jobStateAlerts([job('export', 'dead'), job('backup', 'unknown')], alerted, 'h', T + 3_600_000, EVENTS),
    [],
  );
});

test('a change between dead and unknown is a change; alive again goes out as a success and forgets the job', () => {
  const alerted: AlertedStates = { export: { state: 'dead', at: T }, backup: { state: 'dead', at: T } };
  const due = jobStateAlerts([job('export', 'unknown'), job('backup', 'alive')], alerted, 'h', T, EVENTS);
  assert.deepEqual(
    due.map((a) => [a.job, a.alert.event, a.alert.reason]),
    [
      ['export', 'fail', 'export is unknown'],
      ['backup', 'success', 'alive again (was dead)'],
    ],
  );
  assert.deepEqual(noteAlerted(alerted, 'backup', 'alive', T), { export: { state: 'dead', at: T } });
});

test('a job that was never alerted and is alive is silent; without "fail" in events nothing goes out', () => {
  assert.deepEqual(jobStateAlerts([job('ok', 'alive')], {}, 'h', T, EVENTS), []);
  assert.deepEqual(jobStateAlerts([job('export', 'dead')], {}, 'h', T, ['incident']), []);
});
