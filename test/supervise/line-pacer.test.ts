import { test } from 'node:test';
import assert from 'node:assert/strict';
import { paceLines, SLICE_MS } from '../../lib/supervise/line-pacer.ts';
import type { Line } from '../../lib/core/adapters/lines.ts';

// Each handled line costs 1 ms of a fake clock: slices, order and back-pressure without timing.
function pacer() {
  let now = 0;
  const handled: string[] = [];
  const holds: boolean[] = [];
  let slices = 0;
  const paced = paceLines({
    handle: (line) => {
      now += 1;
      handled.push(line.text);
    },
    hold: (held) => holds.push(held),
    sliced: () => (slices += 1),
    monotonic: () => now,
  });
  return { paced, handled, holds, slices: () => slices };
}

const lines = (n: number, chars = 10): Line[] => Array.from({ length: n }, (_, i) => ({ text: String(i).padStart(chars, '0'), truncated: false }));

test('a few lines are handled at once, in the push', () => {
  const p = pacer();
  p.paced.push(lines(5));
  assert.equal(p.handled.length, 5);
  assert.equal(p.slices(), 1);
});

test('a burst is handled in slices of SLICE_MS, in order, letting the event loop through between them', async () => {
  const p = pacer();
  p.paced.push(lines(200));
  assert.equal(p.handled.length, SLICE_MS, 'the first slice stops after SLICE_MS of work');
  let handledWhenOthersRan = -1;
  setImmediate(() => (handledWhenOthersRan = p.handled.length));
  await p.paced.idle();
  assert.equal(p.handled.length, 200);
  assert.deepEqual(p.handled, lines(200).map((l) => l.text));
  assert.equal(p.slices(), Math.ceil(200 / SLICE_MS));
  assert.equal(handledWhenOthersRan, 2 * SLICE_MS, 'other callbacks ran between the second and third slices');
});

test('a long backlog holds the pipe paused, and lets it go once worked off', async () => {
  const p = pacer();
  p.paced.push(lines(300, 1024)); // 300 KiB of lines: above the 256 KiB high mark
  assert.deepEqual(p.holds, [true]);
  await p.paced.idle();
  assert.deepEqual(p.holds, [true, false]);
});
