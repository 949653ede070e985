import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { Adapter, ParsedLine } from '../../../lib/core/adapters/agent-events.ts';
import { createClaudeAdapter } from '../../../lib/core/adapters/claude.ts';
import { createCodexAdapter } from '../../../lib/core/adapters/codex.ts';
import { isUnreadClaudeLine, isUnreadCodexLine } from '../../../lib/core/adapters/unread-lines.ts';
import { agentLineCorpus, jsonOrNull } from '../../helpers/agent-line-corpus.ts';
import { fixturePath } from '../../helpers/fixtures.ts';

/**
 * The pre-check (unread-lines.ts) skips parsing lines no detector reads; it must change no
 * parsed line. Every recorded transcript, stream and shipped trace the project holds is fed
 * through each adapter with and without it, line by line, and the results compared: the same
 * events in the same order and the same `recognized`, so every detector sees the same input.
 */

const corpus = agentLineCorpus();

function traceRecord(line: string): { type?: unknown; text?: unknown } | null {
  return jsonOrNull(line) as { type?: unknown; text?: unknown } | null;
}

function parsedBy(adapter: Adapter, lines: readonly string[]): ParsedLine[] {
  return lines.map((line) => adapter.parseLine(line));
}

const adapters = [
  { name: 'codex', make: (preCheck: boolean) => createCodexAdapter(undefined, preCheck), unread: isUnreadCodexLine },
  { name: 'claude', make: (preCheck: boolean) => createClaudeAdapter(preCheck), unread: isUnreadClaudeLine },
];

for (const { name, make, unread } of adapters) {
  test(`${name}: every shipped transcript and trace parses the same with and without the pre-check`, () => {
    let skipped = 0;
    for (const file of corpus) {
      assert.deepEqual(parsedBy(make(true), file.lines), parsedBy(make(false), file.lines), file.name);
      skipped += file.lines.filter(unread).length;
    }
    // Not vacuous: the corpus holds lines the pre-check skips.
    assert.ok(skipped >= 10, `${name} skipped only ${skipped} lines`);
  });
}

test('the lines that carry a usage limit, a tool call or a warning are parsed', () => {
  const lines = readFileSync(fixturePath('agents', 'unread-lines-shapes.jsonl'), 'utf8').split('\n');
  const codexLine = (line: string) => /^\{"type": ?"(?:item\.|turn\.|thread\.|error")/.test(line);
  const read = (line: string) => !(codexLine(line) ? isUnreadCodexLine : isUnreadClaudeLine)(line);
  for (const line of lines.filter(
    (l) =>
      /hit your|reached your|usage limit reached|"tool_use"|"tool_result"|"type":"error"|file_change|command_execution|rate_limit_event/.test(
        l,
      ) && !l.startsWith('{"type":"stream_event"'),
  )) {
    assert.ok(read(line), line);
  }
  const limits = parsedBy(createClaudeAdapter(), lines)
    .flatMap((p) => p.events)
    .filter((e) => e.type === 'usage_limit');
  assert.equal(
    limits.length,
    5,
    'rate_limit_event, three limit texts and a throttle said in words without an error key, each in its own turn',
  );
  const codexSaid = parsedBy(createCodexAdapter(), lines)
    .flatMap((p) => p.events)
    .map((e) => (e.type === 'error' || e.type === 'turn_failed' ? e.message : e.type));
  assert.equal(
    codexSaid.filter((said) => said.includes('hit your usage limit')).length,
    2,
    'the error and turn.failed that say the limit',
  );
});

test('messages, reasoning, prompts and updates are skipped, cut short or whole', () => {
  const skipped = [
    '{"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":"patched"}}',
    '{"type": "item.completed", "item": {"id": "item_6", "type": "agent_message", "text": "spaced"}}',
    '{"type":"item.updated","item":{"id":"item_4","type":"todo_list","items":[]}}',
    '{"type":"item.completed","item":{"id":"item_8","type":"agent_message","text":"cut sh',
  ];
  for (const line of skipped) assert.ok(isUnreadCodexLine(line), line);
  assert.ok(isUnreadClaudeLine('{"type":"assistant","message":{"content":[{"type":"text","text":"Let me run it."}]}}'));
  assert.ok(isUnreadClaudeLine('{"type":"user","message":{"role":"user","content":"make the tests pass"}}'));
  assert.ok(isUnreadClaudeLine('{"type":"stream_event","event":{"type":"content_block_delta"}}'));
  assert.ok(
    !isUnreadClaudeLine(
      '{"type":"assistant","message":{"content":[{"type":"text","text":"\\u0059ou\'ve hit your limit"}]}}',
    ),
  );
});

/** The corpus's lines of Claude's stream (the lines the Claude pre-check has an opinion on). */
const claudeLines = corpus
  .flatMap((file) => file.lines)
  .filter((line) => /^\s*\{\s*"type"\s*:\s*"(?:assistant|user|system|result|rate_limit_event)"/.test(line));

/** `line` with every `char` spelled as a \u escape: inside a string the same text, and the escape hides it from a byte scan. */
function escaped(line: string, char: string): string {
  return line.replaceAll(char, `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The same JSON with each object's keys in reverse order, or spaced out like a Python trace; null for a line that is no JSON. */
function rewritten(line: string, how: 'reversed' | 'spaced'): string | null {
  const value = traceRecord(line);
  if (value === null) return null;
  const reverse = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(reverse)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .reverse()
              .map(([k, x]) => [k, reverse(x)]),
          )
        : v;
  return how === 'reversed' ? JSON.stringify(reverse(value)) : JSON.stringify(value, null, 1).replace(/\n */g, ' ');
}

/** Lines written to trip a byte-level reader: the words it looks for inside other strings, escaped quotes, huge values, texts that open like the limit text. */
const tricky = [
  {
    type: 'assistant',
    message: { content: [{ type: 'text', text: 'I will call {"type":"tool_use","id":"x","name":"Bash"} next' }] },
  },
  {
    type: 'assistant',
    message: { content: [{ type: 'text', text: 'the "error" key and a "text":"You\'ve hit your limit" inside' }] },
  },
  {
    type: 'assistant',
    message: {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_q',
          name: 'Bash',
          input: { command: 'echo "\\"text\\":\\"You\'ve hit your limit\\""' },
        },
      ],
    },
  },
  { type: 'user', message: { content: [{ type: 'text', text: 'not a "tool_result", only its name' }] } },
  {
    type: 'user',
    message: {
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_q',
          content: `Exit code 1\n${'x"\\'.repeat(40_000)}You've hit your limit`,
          is_error: true,
        },
      ],
    },
  },
  {
    type: 'user',
    message: {
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_r',
          content: [{ type: 'text', text: 'Exit code 2\n"quoted"' }],
          is_error: true,
        },
      ],
    },
  },
  { type: 'assistant', message: { content: [{ type: 'text', text: 'Claude AI usage limit reached|1796313486' }] } },
  {
    type: 'assistant',
    message: { content: [{ type: 'text', text: ' API Error: Request rejected (429) · try later' }] },
  },
  {
    type: 'assistant',
    message: { content: [{ type: 'text', text: `You've hit your limit${' and more'.repeat(40)}` }] },
  },
  { type: 'assistant', message: { content: [{ type: 'text', text: 'fine' }] }, error: 'rate_limit' },
  { type: 'assistant', error: 'unknown', message: { content: [] } },
  {
    type: 'assistant',
    message: {
      content: [
        { type: 'thinking', thinking: 'the words "text": "tool_use" "error"' },
        { type: 'text', text: 'ok' },
      ],
    },
  },
]
  .map((line) => JSON.stringify(line))
  .concat([
    // Types that are Claude's only in part, or written loosely.
    '{"type":"users',
    '{"type":"assistants',
    '{"type":"user\\"',
    '{"type":"user ","message":{"content":"hi"}}',
    '{"type":"assistant" ,"message":{"content":[]}}',
    ' {"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"ok"}]}}',
  ]);

test('claude: escaped, reordered, spaced, cut and huge forms of every recorded line parse the same with and without the pre-check', () => {
  const same = (lines: readonly string[], what: string) =>
    assert.deepEqual(parsedBy(createClaudeAdapter(true), lines), parsedBy(createClaudeAdapter(false), lines), what);
  const whole = [...claudeLines, ...tricky];
  assert.ok(claudeLines.length >= 40, `only ${claudeLines.length} recorded Claude lines`);
  same(whole, 'the lines in order');
  for (const char of ['o', 'x', 'i', '_', 'Y', 'A', 'C', 'u', ' ', '"'])
    same(
      whole.map((line) => escaped(line, char)),
      `every ${char} escaped`,
    );
  for (const how of ['reversed', 'spaced'] as const)
    same(
      whole.map((line) => rewritten(line, how) ?? line),
      `keys ${how}`,
    );
  for (const line of whole) {
    // Every cut of a line of up to 2,000 characters; about 200 spread over a longer one.
    const step = line.length <= 2_000 ? 1 : Math.ceil(line.length / 199);
    const cuts = Array.from({ length: Math.ceil((line.length - 1) / step) }, (_, i) => line.slice(0, 1 + i * step));
    same(cuts, `the cuts of ${line.slice(0, 120)}`);
  }
});
