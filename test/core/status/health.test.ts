import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgeHealth, parseHealthRecord } from '../../../lib/core/status/health.ts';

const record = { name: 'review', pid: 42, updated_at: 100_000, interval_ms: 5_000, status: 'ok · codex session 01a2' };

test('healthy while refreshed within three intervals, unhealthy after, and without a file', () => {
  assert.deepEqual(judgeHealth(record, 100_000 + 15_000, 'review'), { healthy: true, line: 'review: healthy · ok · codex session 01a2' });
  const stale = judgeHealth(record, 100_000 + 15_001, 'review');
  assert.equal(stale.healthy, false);
  assert.match(stale.line, /last healthy 15s ago \(refreshed every 5s while healthy\); last status: ok/);
  assert.equal(judgeHealth(null, 0, 'review').healthy, false);
  assert.equal(judgeHealth(record, 50_000, 'review').healthy, true, 'a clock set back is not staleness');
});

test('a damaged or foreign health file is no health file', () => {
  assert.deepEqual(parseHealthRecord(JSON.stringify(record)), record);
  for (const bad of ['', '{', 'null', '[]', JSON.stringify({ ...record, interval_ms: 0 }), JSON.stringify({ ...record, updated_at: '1' }), JSON.stringify({ ...record, status: 3 })]) {
    assert.equal(parseHealthRecord(bad), null, bad);
  }
});
