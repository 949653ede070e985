import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectFinishedNotExited } from '../../../lib/core/detect/finished-not-exited.ts';

const GRACE = 30_000;

test('FINISHED_NOT_EXITED fires exactly at exit_grace after the final result, with its verdict', () => {
  const table = [
    { finishedAt: null, now: 999_999, failed: null, fires: false, why: 'no turn ended yet' },
    { finishedAt: 1_000, now: 1_000 + GRACE - 1, failed: null, fires: false, why: 'still within the grace' },
    {
      finishedAt: 1_000,
      now: 1_000 + GRACE,
      failed: null,
      fires: true,
      succeeded: true,
      why: 'grace reached after a success',
    },
    {
      finishedAt: 1_000,
      now: 1_000 + GRACE,
      failed: 'error_during_execution: boom',
      fires: true,
      succeeded: false,
      why: 'a failed result ends the run too',
    },
  ];
  for (const row of table) {
    const found = detectFinishedNotExited({
      now: row.now,
      finishedAt: row.finishedAt,
      failed: row.failed,
      graceMs: GRACE,
    });
    assert.equal(found !== null, row.fires, row.why);
    if (found) {
      assert.equal(found.succeeded, row.succeeded, row.why);
      assert.match(
        found.message,
        row.succeeded
          ? /final result \(success\) and has not exited 30s later/
          : /final result \(failure \(error_during_execution: boom\)\)/,
      );
    }
  }
});

test('exit_grace "off" (0) never fires', () => {
  assert.equal(detectFinishedNotExited({ now: 10 ** 9, finishedAt: 0, failed: null, graceMs: 0 }), null);
});
