import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BACKLOG_HIGH_BYTES, paceLines, SLICE_MS } from '../../../lib/supervise/output/line-pacer.ts';
import { LineSplitter } from '../../../lib/core/adapters/lines.ts';

// Each handled line costs 1 ms of a fake clock: slices, order and back-pressure without timing.
function pacer() {
  let now = 0;
  const handled: string[] = [];
  const times: number[] = [];
  const holds: boolean[] = [];
  let slices = 0;
  const splitter = new LineSplitter(64 * 1024);
  const split: Uint8Array[] = [];
  const paced = paceLines({
    split: (chunk) => {
      if (chunk) split.push(chunk);
      return chunk ? splitter.push(chunk) : splitter.flush();
    },
    handle: (line, at) => {
      times.push(at);
      now += 1;
      handled.push(line.text);
    },
    hold: (held) => holds.push(held),
    sliced: () => (slices += 1),
    monotonic: () => now,
  });
  return { paced, handled, times, holds, slices: () => slices, split, clock: { set: (ms: number) => (now = ms) } };
}

const texts = (n: number, chars = 10): string[] => Array.from({ length: n }, (_, i) => String(i).padStart(chars, '0'));
const chunkOf = (lines: string[]): Uint8Array => new TextEncoder().encode(lines.map((line) => `${line}\n`).join(''));

test('a few lines are handled at once, in the push', () => {
  const p = pacer();
  p.paced.push(chunkOf(texts(5)), 0);
  assert.equal(p.handled.length, 5);
  assert.equal(p.slices(), 1);
});

test('every line carries the arrival time of the chunk that completed it (what the trace records), in whichever slice it is handled', async () => {
  const p = pacer();
  p.clock.set(500);
  p.paced.push(chunkOf(texts(3)), 400);
  assert.deepEqual(p.times, [400, 400, 400], 'not 500, 501, 502: the clock read after the arrival');
  p.paced.push(chunkOf(texts(SLICE_MS + 5)), 503);
  p.paced.push(chunkOf(texts(2)), 510);
  await p.paced.idle();
  assert.ok(p.slices() > 2, 'the burst took more than one slice');
  assert.deepEqual(p.times.slice(3), [...Array(SLICE_MS + 5).fill(503), 510, 510], "not the later slices' clock");
});

test('a burst is handled in slices of SLICE_MS, in order, letting the event loop through between them', async () => {
  const p = pacer();
  p.paced.push(chunkOf(texts(200)), 0);
  assert.equal(p.handled.length, SLICE_MS, 'the first slice stops after SLICE_MS of work');
  let handledWhenOthersRan = -1;
  setImmediate(() => (handledWhenOthersRan = p.handled.length));
  await p.paced.idle();
  assert.equal(p.handled.length, 200);
  assert.deepEqual(p.handled, texts(200));
  assert.equal(p.slices(), Math.ceil(200 / SLICE_MS));
  assert.equal(handledWhenOthersRan, 2 * SLICE_MS, 'other callbacks ran between the second and third slices');
});

test('a long backlog holds the pipe paused, and lets it go once worked off', async () => {
  const p = pacer();
  for (let i = 0; i < 7; i++) p.paced.push(chunkOf(texts(50, 1023)), 0); // 350 KiB: the first is split at once, 300 KiB wait
  assert.ok(6 * 50 * 1024 > BACKLOG_HIGH_BYTES);
  assert.deepEqual(p.holds, [true]);
  await p.paced.idle();
  assert.deepEqual(p.holds, [true, false]);
});

test('chunks wait as bytes and are split one at a time, each only when its turn comes; the end gives the last line', async () => {
  const p = pacer();
  const chunks = [chunkOf(texts(30)), chunkOf(texts(30)), new TextEncoder().encode('tail')];
  for (const chunk of chunks) p.paced.push(chunk, 0);
  p.paced.end();
  assert.equal(p.split.length, 1, 'the first slice (SLICE_MS lines) needed only the first chunk');
  chunks[1]!.fill(0); // the caller frees its chunk once pushed: the pacer kept a copy
  await p.paced.idle();
  assert.deepEqual(p.handled, [...texts(30), ...texts(30), 'tail']);
});
