import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHealthRecord } from '../../../lib/core/status/health.ts';
import { healthRefresher } from '../../../lib/io/health/health-file.ts';
import { tempDir } from '../../helpers/cli.ts';

/**
 * The health file is refreshed at most once per interval while healthy, but a change of health
 * is written at the call that sees it: a stall reaches `deadman health` within one poll, not
 * after the interval (or three) has run out.
 */
test('a stall is written at once; healthy refreshes wait for the interval', (t) => {
  const path = join(tempDir(t), 'health', 'job.json');
  const refresh = healthRefresher(path, { name: 'job', pid: 42, pid_start_time: 7, interval_ms: 2_000 }, (message) =>
    assert.fail(message),
  );
  const read = () => parseHealthRecord(readFileSync(path, 'utf8'));
  refresh(true, 'ok', 1_000, 0);
  assert.deepEqual(read(), {
    name: 'job',
    pid: 42,
    pid_start_time: 7,
    interval_ms: 2_000,
    healthy: true,
    updated_at: 1_000,
    status: 'ok',
  });
  refresh(true, 'ok again', 1_500, 500);
  assert.equal(read()!.status, 'ok', 'within the interval: not rewritten');
  refresh(false, 'STALLED · no output for 5s', 1_600, 600);
  assert.deepEqual(
    [read()!.healthy, read()!.status, read()!.updated_at],
    [false, 'STALLED · no output for 5s', 1_600],
    'the stall is written at once',
  );
  refresh(false, 'STALLED · still', 9_000, 8_000);
  assert.equal(read()!.status, 'STALLED · no output for 5s', 'said once while it lasts');
  refresh(true, 'ok', 9_100, 8_100);
  assert.deepEqual([read()!.healthy, read()!.updated_at], [true, 9_100], 'healthy again: at once');
});
