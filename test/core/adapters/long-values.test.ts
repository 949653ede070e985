import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LONG_VALUE_CHARS, withoutLongValues } from '../../../lib/core/adapters/long-values.ts';
import { createCodexAdapter } from '../../../lib/core/adapters/codex.ts';
import { createClaudeAdapter } from '../../../lib/core/adapters/claude.ts';

// Pieces whose escapes land a cut anywhere: inside \uXXXX, between backslashes, on a quote, in a surrogate pair.
const PIECES = ['x', 'é', '"', '\\', '\n', '\u0001', '😀', '\\\\\\', 'u', '\\u00', ' ok 12 '];

function randomText(seed: number, length: number): string {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  let text = '';
  while (text.length < length) text += PIECES[Math.floor(next() * PIECES.length)];
  return text;
}

test('a long value keeps exactly its start and its end, whatever escapes the cuts land in; the other fields are untouched', () => {
  for (let seed = 1; seed <= 300; seed++) {
    const output = randomText(seed, LONG_VALUE_CHARS + ((seed * 977) % 60_000));
    const line = JSON.stringify({
      type: 'item.completed',
      item: { id: `i${seed}`, aggregated_output: output, exit_code: 3, after: 'kept "as is"' },
    });
    const shortened = withoutLongValues(line, ['aggregated_output']);
    assert.ok(shortened.length < line.length, `seed ${seed}: the middle is cut`);
    const { item } = JSON.parse(shortened);
    assert.equal(item.aggregated_output.slice(-1000), output.slice(-1000), `seed ${seed}: end`);
    assert.equal(item.aggregated_output.slice(0, 170), output.slice(0, 170), `seed ${seed}: start`);
    assert.deepEqual(
      { ...item, aggregated_output: null },
      { id: `i${seed}`, aggregated_output: null, exit_code: 3, after: 'kept "as is"' },
    );
  }
});

test('short lines and values, other keys, a key named inside a string and an unterminated value are left alone', () => {
  const short = JSON.stringify({ type: 'x', aggregated_output: 'y'.repeat(1000) });
  assert.equal(withoutLongValues(short, ['aggregated_output']), short);
  const otherKey = JSON.stringify({ type: 'x', text: 'y'.repeat(3 * LONG_VALUE_CHARS) });
  assert.equal(withoutLongValues(otherKey, ['aggregated_output']), otherKey);
  const quoted = JSON.stringify({ type: 'x', text: `"aggregated_output":"${'y'.repeat(3 * LONG_VALUE_CHARS)}` });
  assert.equal(withoutLongValues(quoted, ['aggregated_output']), quoted);
  const open = `{"type":"x","aggregated_output":"${'y'.repeat(3 * LONG_VALUE_CHARS)}`;
  assert.equal(withoutLongValues(open, ['aggregated_output']), open);
});

test('values of several keys in any order are all cut, in place', () => {
  const [a, b] = [randomText(7, 3 * LONG_VALUE_CHARS), randomText(8, 2 * LONG_VALUE_CHARS)];
  const line = JSON.stringify({ type: 'x', a, middle: 1, b });
  const parsed = JSON.parse(withoutLongValues(line, ['b', 'a']));
  assert.equal(parsed.middle, 1);
  for (const [got, want] of [
    [parsed.a, a],
    [parsed.b, b],
  ] as const) {
    assert.ok(got.length < want.length);
    assert.equal(got.slice(-1000), want.slice(-1000));
  }
});

test('through the adapters: a huge command output or tool result gives the same events as its whole', () => {
  const output = randomText(42, 500_000);
  const item = {
    id: 'c1',
    type: 'command_execution',
    command: 'make',
    aggregated_output: output,
    exit_code: 2,
    status: 'failed',
  };
  assert.deepEqual(createCodexAdapter().parseLine(JSON.stringify({ type: 'item.completed', item })).events, [
    { type: 'tool_finished', toolId: 'c1', exitCode: 2, ok: false, outputTail: output.slice(-1000) },
  ]);
  const content = `Exit code 137\n${output}`;
  const result = {
    type: 'user',
    message: { content: [{ type: 'tool_result', tool_use_id: 't1', content, is_error: true }] },
  };
  // As Claude Code writes it: the output again in tool_use_result, an object of stdout and stderr, or an error's text.
  for (const echo of [
    {},
    { tool_use_result: { stdout: output, stderr: output, interrupted: false } },
    { tool_use_result: `Error: ${content}` },
  ]) {
    assert.deepEqual(createClaudeAdapter().parseLine(JSON.stringify({ ...result, ...echo })).events, [
      { type: 'tool_finished', toolId: 't1', exitCode: 137, ok: false, outputTail: content.slice(-1000) },
    ]);
  }
});
