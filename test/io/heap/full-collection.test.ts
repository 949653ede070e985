import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { v8Heap } from '../../../lib/io/heap/full-collection.ts';

test('collect() runs a full collection without --expose-gc on the command line', async () => {
  assert.equal(typeof (globalThis as { gc?: unknown }).gc, 'undefined', 'this test must run without --expose-gc');
  let target: object | null = { payload: new Array(1000).fill(0) };
  const ref = new WeakRef(target);
  target = null;
  await nextTurn(); // a WeakRef's target stays alive until the job that made it ends
  v8Heap.collect();
  assert.equal(ref.deref(), undefined, 'the unreachable object is gone');
  assert.ok(v8Heap.usedBytes() > 0);
});
