import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pollUntil } from '../../../lib/io/time/poll-until.ts';
import { systemClock } from '../../../lib/io/time/clock.ts';

const { monotonic } = systemClock;

test('returns the first truthy answer of the check, sync or async', async () => {
  let calls = 0;
  assert.equal(
    await pollUntil(() => (++calls >= 3 ? 'ready' : null), { timeoutMs: 5_000, everyMs: 1, monotonic }),
    'ready',
  );
  assert.equal(calls, 3);
  assert.deepEqual(await pollUntil(async () => ({ pid: 7 }), { timeoutMs: 0, everyMs: 1, monotonic }), { pid: 7 });
});

test('null once the deadline passed, the last check falling on the deadline, on the clock it was given', async () => {
  let now = 0;
  const seenAt: number[] = [];
  // Each check moves the clock by 40 ms: checks at 0, 40, 80, then the deadline (100) has passed at 120.
  const result = await pollUntil(
    () => {
      seenAt.push(now);
      now += 40;
      return false;
    },
    { timeoutMs: 100, everyMs: 1, monotonic: () => now },
  );
  assert.equal(result, null);
  assert.deepEqual(seenAt, [0, 40, 80]);
});

test('an abort ends the wait at once, as a timeout does', async () => {
  const abort = new AbortController();
  let calls = 0;
  const started = performance.now();
  const waiting = pollUntil(() => void calls++, { timeoutMs: 60_000, everyMs: 10_000, monotonic, abort: abort.signal });
  setImmediate(() => abort.abort());
  assert.equal(await waiting, null);
  // Without the abort the first wait alone is everyMs: anything shorter ended at the abort, however slow the host.
  assert.ok(performance.now() - started < 10_000);
  assert.ok(calls <= 2, `${calls} checks`);
});
