import { test } from 'node:test';
import assert from 'node:assert/strict';
import { systemClock } from '../../../lib/io/time/clock.ts';

/** Our clock read between two reads of performance.now(): a busy host may pause us anywhere in it. */
const bracketed = () => {
  const before = performance.now();
  const ours = systemClock.monotonic();
  return { before, ours, after: performance.now() };
};

// systemClock.monotonic reads process.uptime() so a start need not load perf_hooks; it must
// still measure what performance.now() measures: milliseconds, from about the process's start.
test('the monotonic clock counts milliseconds from about where performance.now() does', () => {
  const first = bracketed();
  // Both count from the process's start, stamped at two moments of Node's own start-up, which a
  // busy host can pull tens of milliseconds apart (over 50 ms at a load of 25 on 2 cores). Only
  // spans are ever taken on this clock, so "about" is under a second; the span below is exact.
  assert.ok(
    Math.abs(first.ours - first.before) < 1_000,
    `${first.ours} vs performance.now() ${first.before}–${first.after}`,
  );
  while (performance.now() - first.after < 30) {
    // let 30 ms pass on performance.now()'s clock
  }
  const second = bracketed();
  const ours = second.ours - first.ours;
  // Within 1 ms (rounding) of the span performance.now() saw between the reads, however long the host paused us.
  assert.ok(
    ours > 0 && ours > second.before - first.after - 1 && ours < second.after - first.before + 1,
    `${ours} ms against performance.now()'s ${second.before - first.after}–${second.after - first.before} ms`,
  );
});
