import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgeHealth, parseHealthRecord } from '../../../lib/core/status/health.ts';

const record = { name: 'review', pid: 42, updated_at: 100_000, interval_ms: 5_000, status: 'ok · codex session 01a2' };

test('healthy while refreshed within three intervals, unhealthy after', () => {
  assert.deepEqual(judgeHealth(record, 100_000 + 15_000, 'review', true), {
    healthy: true,
    known: true,
    line: 'review: healthy · ok · codex session 01a2',
  });
  const stale = judgeHealth(record, 100_000 + 15_001, 'review', true);
  assert.equal(stale.healthy, false);
  assert.match(stale.line, /last healthy 15s ago \(refreshed every 5s while healthy\); last status: ok/);
  assert.equal(judgeHealth(record, 50_000, 'review', true).healthy, true, 'a clock set back is not staleness');
});

test('a dead deadman or a stall written into the file is unhealthy at once; no file is no such run', () => {
  const dead = judgeHealth(record, 100_000, 'review', false);
  assert.deepEqual([dead.healthy, dead.known], [false, true]);
  assert.match(dead.line, /^review: unhealthy: deadman \(pid 42\) is gone; last status: ok/);
  const stalled = judgeHealth(
    { ...record, healthy: false, status: 'STALLED · no output for 5s · withholding watchdog' },
    100_000,
    'review',
    true,
  );
  assert.deepEqual(stalled, {
    healthy: false,
    known: true,
    line: 'review: unhealthy: STALLED · no output for 5s · withholding watchdog',
  });
  const unknown = judgeHealth(null, 0, 'revieww', false);
  assert.deepEqual([unknown.healthy, unknown.known], [false, false]);
  assert.match(unknown.line, /^revieww: no such run/);
});

test('a damaged or foreign health file is no health file', () => {
  assert.deepEqual(parseHealthRecord(JSON.stringify(record)), record);
  for (const bad of [
    '',
    '{',
    'null',
    '[]',
    JSON.stringify({ ...record, interval_ms: 0 }),
    JSON.stringify({ ...record, updated_at: '1' }),
    JSON.stringify({ ...record, status: 3 }),
    JSON.stringify({ ...record, healthy: 'yes' }),
  ]) {
    assert.equal(parseHealthRecord(bad), null, bad);
  }
});
