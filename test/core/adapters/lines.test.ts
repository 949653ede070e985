import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineSplitter } from '../../../lib/core/adapters/lines.ts';

const bytes = (s: string) => new TextEncoder().encode(s);

test('splits across chunk boundaries and keeps the unterminated tail for flush', () => {
  const s = new LineSplitter(1024);
  assert.deepEqual(s.push(bytes('a\nb')), [{ text: 'a', truncated: false }]);
  assert.deepEqual(s.push(bytes('c\r\n\nd')), [
    { text: 'bc', truncated: false },
    { text: '', truncated: false },
  ]);
  assert.deepEqual(s.flush(), [{ text: 'd', truncated: false }]);
  assert.deepEqual(s.flush(), []);
});

test('a 10 MB line is cut at the limit and flagged, never held whole', () => {
  const s = new LineSplitter(1024 * 1024);
  const chunk = new Uint8Array(64 * 1024).fill(120);
  for (let i = 0; i < 160; i++) assert.deepEqual(s.push(chunk), []);
  const [line] = s.push(bytes('\nnext\n'));
  assert.equal(line!.truncated, true);
  assert.equal(line!.text.length, 1024 * 1024);
  assert.deepEqual(s.push(bytes('ok\n')), [{ text: 'ok', truncated: false }]);
});

test('binary garbage and split UTF-8 never throw', () => {
  const s = new LineSplitter(16);
  const euro = bytes('€\n');
  s.push(euro.subarray(0, 1));
  assert.deepEqual(s.push(euro.subarray(1)), [{ text: '€', truncated: false }]);
  const lines = s.push(new Uint8Array([0, 255, 254, 10]));
  assert.equal(lines.length, 1);
});

test('lines of a chunk come out the same however long the chunk (its text is decoded in spans of a few KiB)', () => {
  const text =
    Array.from({ length: 5000 }, (_, i) => (i % 7 === 0 ? '' : `line ${i} é€ ${'x'.repeat(i % 50)}`)).join('\n') + '\n';
  const whole = new LineSplitter(1024 * 1024).push(new TextEncoder().encode(text));
  assert.deepEqual(
    whole.map((l) => l.text),
    text.split('\n').slice(0, -1),
  );
  assert.ok(whole.every((l) => !l.truncated));
});

test('held starts of lines, short, long and past the limit, in pieces of every size, come out whole and in order (one buffer reused for them)', () => {
  const lines = ['short', 'é€'.repeat(40_000), '', 'x'.repeat(300 * 1024), 'after the long one', 'y'.repeat(5000), 'z'];
  const text = lines.join('\n') + '\n';
  const encoded = new TextEncoder().encode(text);
  for (const piece of [1, 7, 4096, 8192, 65_536]) {
    const s = new LineSplitter(200 * 1024);
    const out = [];
    for (let at = 0; at < encoded.length; at += piece) {
      const chunk = new Uint8Array(encoded.subarray(at, at + piece));
      out.push(...s.push(chunk));
      chunk.fill(0); // the caller frees its chunk
    }
    assert.deepEqual(
      out.map((l) => l.truncated),
      [false, false, false, true, false, false, false],
      `pieces of ${piece}`,
    );
    assert.deepEqual(
      out.map((l) => l.text),
      [...lines.slice(0, 3), 'x'.repeat(200 * 1024), ...lines.slice(4)],
      `pieces of ${piece}`,
    );
  }
});
