import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createGenericAdapter } from '../../lib/core/adapters/generic.ts';
import { OutputTracker } from '../../lib/supervise/output.ts';
import { RunRecords } from '../../lib/supervise/records.ts';

const tracker = () => {
  const adapter = createGenericAdapter();
  return new OutputTracker(0, () => adapter, new RunRecords(null, () => 0), { onSession: () => {} });
};
const bytes = (text: string) => Buffer.from(text);

test('the last lines come from a 16 KiB ring, across chunk and wrap boundaries, and the chunk may be freed after', () => {
  const output = tracker();
  const chunks = Array.from({ length: 400 }, (_, i) => bytes(`line ${i} ${'x'.repeat(i % 90)}\n`));
  for (const [i, chunk] of chunks.entries()) {
    output.chunk(chunk, i);
    chunk.fill(0); // what freeing the chunk would do to a view
  }
  const last = output.lastLines();
  assert.equal(last.length, 20);
  assert.match(last.at(-1)!, /^line 399 x+$/);
  assert.match(last[0]!, /^line 380 /);
  assert.equal(output.state.lastOutputAt, 399);
});

test('one chunk larger than the ring keeps only its end; an unterminated line is kept', () => {
  const output = tracker();
  output.chunk(bytes(`${'a'.repeat(40_000)}\nfirst\nsecond`), 1);
  assert.deepEqual(output.lastLines().slice(-2), ['first', 'second']);
});
