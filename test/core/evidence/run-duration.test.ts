import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgeRunDuration, parseUnitRun, withDurationVerdict } from '../../../lib/core/evidence/run-duration.ts';
import { runDurationProblems } from '../../../lib/core/config/job-fields.ts';

const MIN = 60_000;
const bounds = { min_duration: 10 * MIN, max_duration: 60 * MIN };
const NOW = 1_000_000_000;

test('a last run shorter than min_duration is dead: too fast', () => {
  const v = judgeRunDuration(
    bounds,
    'backup.service',
    { state: 'ended', startedMs: NOW - 5000, endedMs: NOW - 3000 },
    NOW,
  );
  assert.deepEqual([v.claim, v.kind, v.verdict], ['duration', 'duration', 'dead']);
  assert.equal(v.reason, "backup.service's last run took 2s, shorter than min_duration 10min: too fast");
});

test('a last run longer than max_duration is dead: too slow', () => {
  const v = judgeRunDuration(
    bounds,
    'backup.service',
    { state: 'ended', startedMs: NOW - 3 * 60 * MIN, endedMs: NOW - 30 * MIN },
    NOW,
  );
  assert.equal(v.verdict, 'dead');
  assert.match(v.reason, /took 2h 30min, longer than max_duration 1h: too slow$/);
});

test('a run within bounds is alive; each bound alone applies alone', () => {
  const ended = { state: 'ended' as const, startedMs: NOW - 20 * MIN, endedMs: NOW };
  assert.equal(judgeRunDuration(bounds, 'b', ended, NOW).verdict, 'alive');
  assert.equal(judgeRunDuration(bounds, 'b', ended, NOW).reason, "b's last run took 20min");
  assert.equal(judgeRunDuration({ min_duration: 30 * MIN }, 'b', ended, NOW).verdict, 'dead');
  assert.equal(judgeRunDuration({ max_duration: 30 * MIN }, 'b', ended, NOW).verdict, 'alive');
  assert.equal(judgeRunDuration({ max_duration: 10 * MIN }, 'b', ended, NOW).verdict, 'dead');
});

test('exactly at a bound passes', () => {
  assert.equal(
    judgeRunDuration(bounds, 'b', { state: 'ended', startedMs: 0, endedMs: 10 * MIN }, NOW).verdict,
    'alive',
  );
  assert.equal(
    judgeRunDuration(bounds, 'b', { state: 'ended', startedMs: 0, endedMs: 60 * MIN }, NOW).verdict,
    'alive',
  );
});

test('a run still going is dead once over max_duration, else alive', () => {
  assert.equal(judgeRunDuration(bounds, 'b', { state: 'running', startedMs: NOW - 5 * MIN }, NOW).verdict, 'alive');
  const slow = judgeRunDuration(bounds, 'b', { state: 'running', startedMs: NOW - 61 * MIN }, NOW);
  assert.equal(slow.verdict, 'dead');
  assert.equal(slow.reason, 'b has been running for 1h 1min, longer than max_duration 1h: too slow');
});

test('no run known is unknown, never alive; a run that ended before it started is unknown', () => {
  const none = judgeRunDuration(
    bounds,
    'run nightly',
    { state: 'none', why: 'deadman has recorded no run of that name' },
    NOW,
  );
  assert.deepEqual(
    [none.verdict, none.reason],
    ['unknown', 'no run of run nightly known: deadman has recorded no run of that name'],
  );
  assert.equal(
    judgeRunDuration(bounds, 'b', { state: 'ended', startedMs: NOW, endedMs: NOW - 1 }, NOW).verdict,
    'unknown',
  );
});

test("the duration verdict joins the job's claims and its combined state", () => {
  const alive = {
    job: 'backup',
    verdict: 'alive' as const,
    claims: [{ claim: 'file-1', kind: 'file' as const, verdict: 'alive' as const, reason: 'ok' }],
  };
  const tooFast = judgeRunDuration(bounds, 'b', { state: 'ended', startedMs: 0, endedMs: 1000 }, NOW);
  const judged = withDurationVerdict(alive, tooFast);
  assert.equal(judged.verdict, 'dead');
  assert.deepEqual(
    judged.claims.map((c) => c.claim),
    ['file-1', 'duration'],
  );
});

test('systemctl show output: ended, running, never run, not loaded, garbled', () => {
  const show = (start: string, exit: string, load = 'loaded') =>
    `LoadState=${load}\nExecMainStartTimestampMonotonic=${start}\nExecMainExitTimestampMonotonic=${exit}\n`;
  assert.deepEqual(parseUnitRun(show('5000000', '7500000')), { state: 'ended', startedMs: 5000, endedMs: 7500 });
  assert.deepEqual(parseUnitRun(show('5000000', '0')), { state: 'running', startedMs: 5000 });
  assert.equal(parseUnitRun(show('0', '0')).state, 'none');
  assert.deepEqual(parseUnitRun(show('0', '0', 'not-found')), {
    state: 'none',
    why: 'the unit is not loaded (LoadState=not-found)',
  });
  assert.equal(parseUnitRun('LoadState=loaded\n').state, 'none');
});

test('the duration keys: a source is needed, one only, and min not over max', () => {
  assert.deepEqual(runDurationProblems({ min_duration: 1 }), [
    ['min_duration', 'needs "unit" (a systemd unit) or "run" (a deadman run name): where the job\'s last run is read'],
  ]);
  assert.deepEqual(
    runDurationProblems({ max_duration: 1, unit: 'a.service', run: 'a' }).map(([k]) => k),
    ['run'],
  );
  assert.deepEqual(
    runDurationProblems({ unit: 'a.service' }).map(([k]) => k),
    ['unit'],
  );
  assert.deepEqual(
    runDurationProblems({ min_duration: 2, max_duration: 1, run: 'a' }).map(([k]) => k),
    ['min_duration'],
  );
  assert.deepEqual(runDurationProblems({ min_duration: 1, max_duration: 2, unit: 'a.service' }), []);
  assert.deepEqual(runDurationProblems({}), []);
});
