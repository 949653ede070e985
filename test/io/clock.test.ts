import { test } from 'node:test';
import assert from 'node:assert/strict';
import { systemClock } from '../../lib/io/clock.ts';

// systemClock.monotonic reads process.uptime() so a start need not load perf_hooks; it must
// still measure what performance.now() measures: milliseconds, from about the process's start.
test('the monotonic clock counts milliseconds from about where performance.now() does', () => {
  const first = { ours: systemClock.monotonic(), node: performance.now() };
  assert.ok(Math.abs(first.ours - first.node) < 50, `${first.ours} vs performance.now() ${first.node}`);
  while (performance.now() - first.node < 30) {
    // let 30 ms pass on performance.now()'s clock
  }
  const second = { ours: systemClock.monotonic(), node: performance.now() };
  const [ours, node] = [second.ours - first.ours, second.node - first.node];
  assert.ok(ours > 0 && Math.abs(ours - node) < 5, `${ours} ms against performance.now()'s ${node} ms`);
});
