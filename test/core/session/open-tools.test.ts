import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openToolCalls } from '../../../lib/core/session/open-tools.ts';
import { signalSequence } from '../../../lib/core/session/replay-report.ts';

const line = (value: object) => JSON.stringify(value);
const at = (s: number) => new Date(Date.UTC(2026, 11, 2, 0, 0, s)).toISOString();

test('Codex: a function_call or custom_tool_call is open until its output names its call_id', () => {
  const lines = [
    line({
      timestamp: at(1),
      type: 'response_item',
      payload: { type: 'function_call', name: 'exec_command', call_id: 'call_1' },
    }),
    line({
      timestamp: at(2),
      type: 'response_item',
      payload: { type: 'custom_tool_call', name: 'apply_patch', call_id: 'call_2' },
    }),
    line({
      timestamp: at(3),
      type: 'response_item',
      payload: { type: 'function_call_output', call_id: 'call_1', output: 'ok' },
    }),
    '{"cut off',
  ];
  assert.deepEqual(openToolCalls(lines), [{ toolId: 'call_2', startedAt: Date.parse(at(2)) }]);
  assert.deepEqual(
    openToolCalls([
      ...lines,
      line({ type: 'response_item', payload: { type: 'custom_tool_call_output', call_id: 'call_2' } }),
    ]),
    [],
  );
});

test('Claude: an assistant tool_use is open until a user tool_result names it; a line without a timestamp opens one with no start', () => {
  const lines = [
    line({
      timestamp: at(1),
      type: 'assistant',
      message: {
        content: [
          { type: 'text', text: 'running' },
          { type: 'tool_use', id: 'toolu_1' },
        ],
      },
    }),
    line({ type: 'assistant', message: { content: [{ type: 'tool_use', id: 'toolu_2' }] } }),
    line({
      timestamp: at(5),
      type: 'user',
      message: { content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'done' }] },
    }),
    line({ type: 'user', message: { content: 'a plain prompt' } }),
  ];
  assert.deepEqual(openToolCalls(lines), [{ toolId: 'toolu_2', startedAt: null }]);
});

test('the signal sequence is one line per incident: kind, each action, final state', () => {
  const steps = [
    { at: 1, incident: 1, kind: 'HUNG_PROCESS', step: 'signal' as const, message: 'm' },
    { at: 1, incident: 1, kind: 'HUNG_PROCESS', step: 'transition' as const, to: 'RECOVERING', reason: 'r' },
    {
      at: 1,
      incident: 1,
      kind: 'HUNG_PROCESS',
      step: 'action' as const,
      action: 'TERMINATE_DESCENDANT_PROCESS',
      result: 'killed',
      killed: [5],
    },
    { at: 2, incident: 2, kind: 'OUTPUT_INACTIVITY', step: 'signal' as const, message: 'm' },
    { at: 3, incident: 1, kind: 'HUNG_PROCESS', step: 'transition' as const, to: 'RESOLVED', reason: 'r' },
  ];
  assert.deepEqual(signalSequence(steps), [
    'HUNG_PROCESS → TERMINATE_DESCENDANT_PROCESS → RESOLVED',
    'OUTPUT_INACTIVITY → OPEN',
  ]);
});
