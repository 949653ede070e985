import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mapBounded } from '../../../lib/io/evidence/map-bounded.ts';

test("at most `limit` pieces of work in flight, results in the items' order", async () => {
  let inFlight = 0;
  let most = 0;
  const release: Array<() => void> = [];
  const running = mapBounded([...Array(100).keys()], 4, async (item) => {
    most = Math.max(most, ++inFlight);
    await new Promise<void>((resolve) => release.push(resolve));
    inFlight--;
    return item * 2;
  });
  while (release.length > 0 || inFlight > 0) {
    await new Promise((resolve) => setImmediate(resolve));
    release.splice(0).forEach((go) => go());
  }
  assert.deepEqual(
    await running,
    [...Array(100).keys()].map((i) => i * 2),
  );
  assert.equal(most, 4);
});
