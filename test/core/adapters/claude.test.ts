import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClaudeAdapter } from '../../../lib/core/adapters/claude.ts';
import { eventsOf, fixtureLines, withoutOutputTails } from '../../helpers/fixtures.ts';

test('a Bash call that succeeds: session, turn, tool with exit 0, completion, usage of this run', () => {
  const adapter = createClaudeAdapter();
  const lines = fixtureLines('agents', 'claude-bash-success.jsonl');
  assert.ok(lines.every((line) => adapter.parseLine(line).recognized));
  assert.deepEqual(eventsOf(createClaudeAdapter(), lines), [
    { type: 'session', sessionId: '6e800c64-22ae-404c-869c-65b8d8ca672c' },
    { type: 'turn_started' },
    { type: 'tool_started', toolId: 'toolu_1', command: 'echo hi; echo warn >&2' },
    { type: 'tool_finished', toolId: 'toolu_1', exitCode: 0, ok: true, outputTail: 'hi\nwarn' },
    { type: 'turn_completed' },
    {
      type: 'usage',
      usage: { inputTokens: 250, cachedInputTokens: 40, outputTokens: 20 },
      totalCostUsd: 0.0015825000000000001,
    },
  ]);
});

test('a killed grandchild (exit 137), then SIGINT: rejected tool, interrupted run fails', () => {
  const events = eventsOf(createClaudeAdapter(), fixtureLines('agents', 'claude-killed-then-interrupted.jsonl'));
  assert.deepEqual(
    withoutOutputTails(events).filter((e) => e.type !== 'usage'),
    [
      { type: 'session', sessionId: '3934d793-018c-4550-ad20-8de3cd3ead8e' },
      { type: 'turn_started' },
      { type: 'tool_started', toolId: 'toolu_5', command: 'sleep 600' },
      { type: 'tool_finished', toolId: 'toolu_5', exitCode: 137, ok: false },
      { type: 'tool_started', toolId: 'toolu_6', command: 'sleep 600' },
      { type: 'tool_finished', toolId: 'toolu_6', exitCode: null, ok: false },
      {
        type: 'turn_failed',
        message: 'error_during_execution: [ede_diagnostic] result_type=user last_content_type=n/a stop_reason=tool_use',
      },
    ],
  );
});

test('API retries are errors; an API error result with subtype success is still a failure', () => {
  const events = eventsOf(createClaudeAdapter(), fixtureLines('agents', 'claude-api-529.jsonl'));
  const described = events.map((e) =>
    e.type === 'error' || e.type === 'turn_failed' ? `${e.type}: ${e.message}` : e.type,
  );
  const expected = [
    'session',
    'turn_started',
    'error: API retry 1/2 (529): overloaded',
    'error: API retry 2/2 (529): overloaded',
    'error: API Error: 529 Overloaded.',
    'turn_failed: success: API Error: 529 Overloaded.',
    'usage',
  ];
  assert.equal(described.length, expected.length, described.join(' | '));
  expected.forEach((start, i) =>
    assert.ok(described[i]!.startsWith(start), `${described[i]} should start with ${start}`),
  );
});

test('max turns: the errors list is the failure message', () => {
  const events = eventsOf(createClaudeAdapter(), fixtureLines('agents', 'claude-max-turns.jsonl'));
  assert.deepEqual(
    events.find((e) => e.type === 'turn_failed'),
    { type: 'turn_failed', message: 'error_max_turns: Reached maximum number of turns (1)' },
  );
  assert.deepEqual(
    events.find((e) => e.type === 'tool_finished'),
    { type: 'tool_finished', toolId: 'toolu_13', exitCode: 3, ok: false, outputTail: 'Exit code 3\nhello\noops' },
  );
});

test('tool results given as text blocks, non-Bash tools, and task lines', () => {
  const events = eventsOf(createClaudeAdapter(), [
    JSON.stringify({
      type: 'assistant',
      message: { content: [{ type: 'tool_use', id: 'toolu_r', name: 'Read', input: { file_path: '/x' } }] },
    }),
    JSON.stringify({ type: 'system', subtype: 'task_started', task_id: 'b1', tool_use_id: 'toolu_r' }),
    JSON.stringify({
      type: 'user',
      message: {
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_r',
            content: [{ type: 'text', text: 'Exit code 2\nnope' }],
            is_error: true,
          },
        ],
      },
    }),
    JSON.stringify({ type: 'user', message: { content: 'a plain prompt' } }),
    JSON.stringify({
      type: 'assistant',
      message: { content: [{ type: 'tool_use', id: 'toolu_g', name: 'Glob', input: {} }] },
    }),
    JSON.stringify({
      type: 'user',
      message: { content: [{ type: 'tool_result', tool_use_id: 'toolu_g', content: 'found', is_error: false }] },
    }),
  ]);
  assert.deepEqual(withoutOutputTails(events), [
    { type: 'tool_started', toolId: 'toolu_r', command: null },
    { type: 'tool_finished', toolId: 'toolu_r', exitCode: 2, ok: false },
    { type: 'tool_started', toolId: 'toolu_g', command: null },
    { type: 'tool_finished', toolId: 'toolu_g', exitCode: null, ok: true },
  ]);
});

test('Edit, Write, MultiEdit and NotebookEdit calls that succeed change their file; failed ones and reads change nothing', () => {
  const call = (id: string, name: string, input: object, isError = false) => [
    JSON.stringify({ type: 'assistant', message: { content: [{ type: 'tool_use', id, name, input }] } }),
    JSON.stringify({
      type: 'user',
      message: {
        content: [
          {
            type: 'tool_result',
            tool_use_id: id,
            content: isError ? 'String to replace not found' : 'ok',
            is_error: isError,
          },
        ],
      },
    }),
  ];
  const events = eventsOf(createClaudeAdapter(), [
    ...call('t1', 'Edit', { file_path: '/r/src/a.ts', old_string: 'x', new_string: 'y' }),
    ...call('t2', 'Write', { file_path: '/r/NOTES.md', content: 'hi' }),
    ...call('t3', 'MultiEdit', { file_path: '/r/src/b.ts', edits: [] }),
    ...call('t4', 'NotebookEdit', { notebook_path: '/r/n.ipynb', new_source: '' }),
    ...call('t5', 'Edit', { file_path: '/r/src/c.ts', old_string: 'x', new_string: 'y' }, true),
    ...call('t6', 'Read', { file_path: '/r/src/d.ts' }),
  ]);
  assert.deepEqual(
    events.filter((e) => e.type === 'files_changed').map((e) => e.paths),
    [['/r/src/a.ts'], ['/r/NOTES.md'], ['/r/src/b.ts'], ['/r/n.ipynb']],
  );
});

test('plain-text errors printed before the JSON are not events', () => {
  const adapter = createClaudeAdapter();
  assert.deepEqual(adapter.parseLine('Error: When using --print, --output-format=stream-json requires --verbose'), {
    recognized: false,
    events: [],
  });
  assert.deepEqual(adapter.parseLine('{"type":"stream_event","event":{}}'), { recognized: true, events: [] });
  assert.deepEqual(
    adapter.parseLine('{"type":"result","subtype":"success"}'),
    { recognized: true, events: [] },
    'a result without is_error is not a success',
  );
});

test('text-only assistant messages and prompts carry no events; an API error or a tool block still does', () => {
  const adapter = createClaudeAdapter();
  const assistant = (message: object, extra = {}) => JSON.stringify({ type: 'assistant', message, ...extra });
  assert.deepEqual(adapter.parseLine(assistant({ content: [{ type: 'text', text: 'thinking aloud' }] })), {
    recognized: true,
    events: [],
  });
  assert.deepEqual(
    adapter.parseLine(JSON.stringify({ type: 'user', message: { content: [{ type: 'text', text: 'go on' }] } })),
    { recognized: true, events: [] },
  );
  assert.deepEqual(
    adapter.parseLine(assistant({ content: [{ type: 'text', text: 'API Error: 529' }] }, { error: 'overloaded' }))
      .events,
    [{ type: 'error', message: 'API Error: 529' }],
  );
  assert.deepEqual(
    adapter.parseLine(
      assistant({
        content: [
          { type: 'text', text: 'a' },
          { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } },
        ],
      }),
    ).events,
    [{ type: 'tool_started', toolId: 't1', command: 'ls' }],
  );
  const result = JSON.stringify({
    type: 'user',
    message: {
      content: [
        { type: 'text', text: 'x' },
        { type: 'tool_result', tool_use_id: 't1', content: 'a.txt' },
      ],
    },
  });
  assert.deepEqual(adapter.parseLine(result).events, [
    { type: 'tool_finished', toolId: 't1', exitCode: 0, ok: true, outputTail: 'a.txt' },
  ]);
});
