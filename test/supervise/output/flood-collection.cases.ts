import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  FLOOD_COLLECTION_SPACING_MS,
  FLOOD_GROWTH_BYTES,
  QUIET_COMPACTION_MS,
  QUIET_GROWTH_BYTES,
  floodCollection,
  quietCompaction,
} from '../../../lib/supervise/output/flood-collection.ts';
import { fakeClock, settle } from '../fakes.ts';

const MB = 1024 * 1024;

/** A heap whose size the test sets; a collection brings it down to `live`. */
function fakeHeap(live: number) {
  let used = live;
  const collections: number[] = [];
  const compactions: number[] = [];
  return {
    collections,
    compactions,
    grow: (bytes: number) => (used += bytes),
    port: {
      usedBytes: () => used,
      collect: () => void collections.push((used = live)),
      compact: () => void compactions.push((used = live)),
    },
  };
}

test('a heap grown by a flood is collected once, then not again until the spacing has passed', () => {
  let now = 0;
  const heap = fakeHeap(12 * MB);
  const afterSlice = floodCollection(() => now, heap.port);
  afterSlice();
  heap.grow(FLOOD_GROWTH_BYTES - 1);
  afterSlice();
  assert.equal(heap.collections.length, 0, 'not grown enough');
  heap.grow(1);
  now = 100;
  afterSlice();
  assert.equal(heap.collections.length, 1, 'grown by the bound');
  heap.grow(3 * FLOOD_GROWTH_BYTES);
  now += FLOOD_COLLECTION_SPACING_MS - 1;
  afterSlice();
  assert.equal(heap.collections.length, 1, 'within the spacing, V8 keeps its own schedule');
  now += 1;
  afterSlice();
  assert.equal(heap.collections.length, 2);
});

test('growth counts from the size the last collection left, and a run without the port never collects', () => {
  let now = 0;
  const heap = fakeHeap(12 * MB);
  const afterSlice = floodCollection(() => now, heap.port);
  afterSlice();
  heap.grow(FLOOD_GROWTH_BYTES);
  afterSlice();
  now = FLOOD_COLLECTION_SPACING_MS;
  heap.grow(FLOOD_GROWTH_BYTES - 1);
  afterSlice();
  assert.equal(heap.collections.length, 1, 'the second growth is counted from the collected size');
  assert.doesNotThrow(() => floodCollection(() => now, undefined)());
});

test('quiet output compacts the heap once per quiet spell, and again only after it grew', async () => {
  const time = fakeClock();
  const heap = fakeHeap(12 * MB);
  const output = quietCompaction(time.clock, heap.port);
  time.advance(QUIET_COMPACTION_MS - 1);
  await settle();
  assert.equal(heap.compactions.length, 0, 'not before the start has been quiet long enough');
  time.advance(1);
  await settle();
  assert.equal(heap.compactions.length, 1, 'an idle resident is compacted once');
  for (let i = 0; i < 3; i++) {
    heap.grow(QUIET_GROWTH_BYTES);
    output();
    time.advance(QUIET_COMPACTION_MS - 1);
    await settle();
  }
  assert.equal(heap.compactions.length, 1, 'never while output keeps coming');
  time.advance(1);
  await settle();
  assert.equal(heap.compactions.length, 2, 'once it went quiet, after a growth');
  heap.grow(QUIET_GROWTH_BYTES - 1);
  output();
  time.advance(QUIET_COMPACTION_MS);
  await settle();
  assert.equal(heap.compactions.length, 2, 'a pause of a chatty agent that grew little costs nothing');
  assert.doesNotThrow(() => quietCompaction(time.clock, undefined)());
});
