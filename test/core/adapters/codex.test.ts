import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCodexAdapter, type CodexStart } from '../../../lib/core/adapters/codex.ts';
import type { Usage } from '../../../lib/core/adapters/agent-events.ts';
import { eventsOf, fixtureLines, withoutOutputTails } from '../../helpers/fixtures.ts';

test('a turn with two failing commands: session, tools with exit codes, warning, usage', () => {
  const adapter = createCodexAdapter();
  const lines = fixtureLines('agents', 'codex-failing-command.jsonl');
  assert.ok(lines.every((line) => adapter.parseLine(line).recognized));
  assert.equal(
    eventsOf(createCodexAdapter(), lines).find((e) => e.type === 'tool_finished' && e.toolId === 'item_2')?.type ===
      'tool_finished' &&
      (eventsOf(createCodexAdapter(), lines).find((e) => e.type === 'tool_finished') as { outputTail?: string })
        .outputTail,
    'oops\nhello\n',
    "the command's aggregated output",
  );
  const command = "/bin/bash -lc 'echo hello; echo oops >&2; exit 3'";
  assert.deepEqual(withoutOutputTails(eventsOf(createCodexAdapter(), lines)), [
    { type: 'session', sessionId: '01a23013-27f3-73e2-b3cb-86b68ffb84d0' },
    {
      type: 'error',
      message:
        'Model metadata for `gpt-5.1-codex` not found. Defaulting to fallback metadata; this can degrade performance and cause issues.',
    },
    { type: 'turn_started' },
    { type: 'tool_started', toolId: 'item_2', command },
    { type: 'tool_finished', toolId: 'item_2', exitCode: 3, ok: false },
    { type: 'tool_started', toolId: 'item_3', command },
    { type: 'tool_finished', toolId: 'item_3', exitCode: 3, ok: false },
    { type: 'turn_completed' },
    { type: 'usage', usage: { inputTokens: 400, cachedInputTokens: 90, outputTokens: 40 } },
  ]);
});

test('web search with two "id" keys, a file change, a reconnect error, then a failed turn', () => {
  const events = eventsOf(createCodexAdapter(), fixtureLines('agents', 'codex-search-patch-failed.jsonl'));
  const failure = '{"error": {"message": "mock bad request", "type": "invalid_request_error"}}';
  assert.deepEqual(withoutOutputTails(events), [
    { type: 'session', sessionId: '01a23015-062d-7ea2-9009-e7b587d86284' },
    { type: 'turn_started' },
    { type: 'tool_started', toolId: 'item_1', command: null },
    { type: 'files_changed', paths: ['/srv/exp/srv/repo/hello.txt'] },
    { type: 'tool_finished', toolId: 'item_1', exitCode: null, ok: true },
    { type: 'error', message: 'Reconnecting... 1/3 (stream disconnected before completion: mock)' },
    { type: 'error', message: failure },
    { type: 'turn_failed', message: failure },
  ]);
});

test('cumulative usage becomes deltas per thread', () => {
  const adapter = createCodexAdapter();
  const completed = (input: number, cached: number, output: number) =>
    JSON.stringify({
      type: 'turn.completed',
      usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output },
    });
  const usage = (line: string) => adapter.parseLine(line).events.filter((e) => e.type === 'usage');
  adapter.parseLine('{"type":"thread.started","thread_id":"t1"}');
  assert.deepEqual(usage(completed(400, 90, 40)), [
    { type: 'usage', usage: { inputTokens: 400, cachedInputTokens: 90, outputTokens: 40 } },
  ]);
  assert.deepEqual(usage(completed(500, 110, 50)), [
    { type: 'usage', usage: { inputTokens: 100, cachedInputTokens: 20, outputTokens: 10 } },
  ]);
  assert.deepEqual(usage(completed(500, 110, 50)), [], 'an unchanged total charges nothing');
  adapter.parseLine('{"type":"thread.started","thread_id":"t2"}');
  assert.deepEqual(usage(completed(30, 0, 3)), [
    { type: 'usage', usage: { inputTokens: 30, cachedInputTokens: 0, outputTokens: 3 } },
  ]);
  assert.deepEqual(
    usage('{"type":"turn.completed","usage":{"input_tokens":"lots","output_tokens":-5}}'),
    [],
    'bad numbers count as 0',
  );
});

test('a resumed thread is charged only what it adds: from its earlier recorded total, else its first total is the baseline', () => {
  const earlier = { inputTokens: 400, cachedInputTokens: 90, outputTokens: 40 };
  const table: Array<{ start: CodexStart; thread: string; first: Usage | null; why: string }> = [
    {
      start: { resumed: false },
      thread: 't1',
      first: { inputTokens: 500, cachedInputTokens: 110, outputTokens: 50 },
      why: 'a new thread counts from zero',
    },
    {
      start: { resumed: true, sessionId: 't1', earlierTotal: earlier },
      thread: 't1',
      first: { inputTokens: 100, cachedInputTokens: 20, outputTokens: 10 },
      why: 'the earlier total is subtracted',
    },
    {
      start: { resumed: true, sessionId: null, earlierTotal: null },
      thread: 't1',
      first: null,
      why: 'resume --last, nothing recorded: the first total is the baseline',
    },
    {
      start: { resumed: true, sessionId: 't1', earlierTotal: null },
      thread: 't1',
      first: null,
      why: 'no record of the session: the first total is the baseline',
    },
    {
      start: { resumed: true, sessionId: 't1', earlierTotal: earlier },
      thread: 't9',
      first: { inputTokens: 500, cachedInputTokens: 110, outputTokens: 50 },
      why: 'Codex opened another thread: it counts from zero',
    },
  ];
  for (const row of table) {
    const adapter = createCodexAdapter(row.start);
    const usage = (line: string) =>
      adapter
        .parseLine(line)
        .events.filter((e) => e.type === 'usage')
        .map((e) => e.usage);
    adapter.parseLine(JSON.stringify({ type: 'thread.started', thread_id: row.thread }));
    const completed = (input: number, cached: number, output: number) =>
      JSON.stringify({
        type: 'turn.completed',
        usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output },
      });
    assert.deepEqual(usage(completed(500, 110, 50)), row.first ? [row.first] : [], row.why);
    assert.deepEqual(
      usage(completed(600, 130, 60)),
      [{ inputTokens: 100, cachedInputTokens: 20, outputTokens: 10 }],
      `${row.why}: later turns are deltas`,
    );
  }
});

test('a failed file_change changed nothing', () => {
  const change = (status: string) =>
    JSON.stringify({
      type: 'item.completed',
      item: {
        id: 'item_3',
        type: 'file_change',
        changes: [
          { path: '/r/a.ts', kind: 'update' },
          { path: '/r/b.ts', kind: 'add' },
        ],
        status,
      },
    });
  assert.deepEqual(createCodexAdapter().parseLine(change('completed')).events[0], {
    type: 'files_changed',
    paths: ['/r/a.ts', '/r/b.ts'],
  });
  assert.deepEqual(
    createCodexAdapter()
      .parseLine(change('failed'))
      .events.map((e) => e.type),
    ['tool_finished'],
  );
});

test('mcp tool calls are tools; failed ones are not ok', () => {
  const item = (status: string, extra = {}) => ({
    id: 'item_7',
    type: 'mcp_tool_call',
    server: 'files',
    tool: 'read',
    status,
    ...extra,
  });
  const events = eventsOf(createCodexAdapter(), [
    JSON.stringify({ type: 'item.started', item: item('in_progress') }),
    JSON.stringify({ type: 'item.completed', item: item('failed', { error: { message: 'no such file' } }) }),
  ]);
  assert.deepEqual(withoutOutputTails(events), [
    { type: 'tool_started', toolId: 'item_7', command: 'files.read' },
    { type: 'tool_finished', toolId: 'item_7', exitCode: null, ok: false },
  ]);
});

test('a completed command cut by the line limit still closes its tool, outcome unknown', () => {
  const line = JSON.stringify({
    type: 'item.completed',
    item: {
      id: 'item_9',
      type: 'command_execution',
      command: 'cat big',
      aggregated_output: 'x'.repeat(2_000_000),
      exit_code: 0,
      status: 'completed',
    },
  });
  assert.deepEqual(createCodexAdapter().parseLine(line.slice(0, 1024 * 1024)), {
    recognized: true,
    events: [{ type: 'tool_finished', toolId: 'item_9', exitCode: null, ok: false }],
  });
  assert.deepEqual(withoutOutputTails(createCodexAdapter().parseLine(line).events), [
    { type: 'tool_finished', toolId: 'item_9', exitCode: 0, ok: true },
  ]);
  assert.equal(
    (createCodexAdapter().parseLine(line).events[0] as { outputTail: string }).outputTail.length,
    1000,
    'a bounded tail of the output',
  );
});

test('known types with the wrong shape and unknown types are progress without events', () => {
  const adapter = createCodexAdapter();
  for (const line of [
    '{"type":"thread.started"}',
    '{"type":"item.started","item":{"type":"command_execution"}}',
    '{"type":"item.plan.delta","delta":"x"}',
    '{"type":"turn.failed","error":"flat"}',
  ]) {
    assert.deepEqual(adapter.parseLine(line), { recognized: true, events: [] }, line);
  }
});

test('messages, reasoning and updates are progress without events, whatever else they hold; tool items and warnings still count', () => {
  const adapter = createCodexAdapter();
  for (const item of [
    { id: 'm', type: 'agent_message', text: 'hi' },
    { type: 'reasoning', text: 7 },
    { id: 'x', type: 'agent_message', exit_code: 'not a number' },
  ]) {
    assert.deepEqual(
      adapter.parseLine(JSON.stringify({ type: 'item.completed', item })),
      { recognized: true, events: [] },
      JSON.stringify(item),
    );
  }
  assert.deepEqual(adapter.parseLine('{"type":"item.updated","item":{"id":"c","type":"command_execution"}}'), {
    recognized: true,
    events: [],
  });
  assert.deepEqual(
    adapter.parseLine('{"type":"item.completed","item":{"id":"w","type":"error","message":"low disk"}}').events,
    [{ type: 'error', message: 'low disk' }],
  );
  assert.deepEqual(
    adapter.parseLine('{"type":"item.started","item":{"id":"c","type":"command_execution","command":"ls"}}').events,
    [{ type: 'tool_started', toolId: 'c', command: 'ls' }],
  );
});
