import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OUTPUT_TAIL_CHARS, outputTail } from '../../../lib/core/adapters/output-tail.ts';

test("the tail is the output's last characters, whether the output is short, a little longer or copied from a long one", () => {
  for (const length of [0, 10, OUTPUT_TAIL_CHARS, 3 * OUTPUT_TAIL_CHARS, 1_000_000]) {
    const output = Array.from({ length }, (_, i) => String.fromCharCode(97 + (i % 26))).join('') + (length ? 'é' : '');
    assert.equal(outputTail(output), output.slice(-OUTPUT_TAIL_CHARS), `length ${length}`);
  }
});
