import type { ServerResponse } from 'node:http';
import { openStream, sendEvent, sendError } from './sse.ts';
import type { Turn } from './script.ts';

/**
 * The OpenAI Responses API as Codex CLI reads it (`wire_api = "responses"`, streamed): a
 * response.created, one output item (a message, or a function call of the shell tool Codex
 * offered in the request), then response.completed with usage.
 */

interface ToolSpec {
  type?: string;
  name?: string;
}

/** The arguments of a call to whichever shell tool the request offered, for `command`. */
export function shellCall(tools: ToolSpec[], command: string): { name: string; arguments: string } {
  const names = new Set(tools.map((t) => t.name));
  // Unified exec hands a still-running command back to the model after yield_time_ms (10 s by
  // default): the longest wait (30 s) keeps the agent waiting on its tool the way a shell tool does.
  if (names.has('exec_command'))
    return { name: 'exec_command', arguments: JSON.stringify({ cmd: command, yield_time_ms: 30_000 }) };
  if (names.has('shell_command')) return { name: 'shell_command', arguments: JSON.stringify({ command }) };
  return { name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', command] }) };
}

export function answerResponses(
  response: ServerResponse,
  turn: Turn,
  request: { tools?: ToolSpec[] },
  serial: number,
): void {
  if (turn.kind === 'error') return sendError(response, turn.status, turn.body, turn.headers, turn.resetInSeconds);
  const id = `resp_${serial}`;
  openStream(response);
  sendEvent(response, {
    type: 'response.created',
    response: { id, object: 'response', status: 'in_progress', output: [] },
  });
  const item =
    turn.kind === 'text'
      ? {
          type: 'message',
          id: `msg_${serial}`,
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: turn.text, annotations: [] }],
        }
      : {
          type: 'function_call',
          id: `fc_${serial}`,
          call_id: `call_${serial}`,
          status: 'completed',
          ...shellCall(request.tools ?? [], turn.command),
        };
  sendEvent(response, {
    type: 'response.output_item.added',
    output_index: 0,
    item: { ...item, status: 'in_progress' },
  });
  if (turn.kind === 'text')
    sendEvent(response, {
      type: 'response.output_text.delta',
      item_id: item.id,
      output_index: 0,
      content_index: 0,
      delta: turn.text,
    });
  sendEvent(response, { type: 'response.output_item.done', output_index: 0, item });
  const usage = {
    input_tokens: 100,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 10,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 110,
  };
  sendEvent(response, {
    type: 'response.completed',
    response: { id, object: 'response', status: 'completed', output: [item], usage },
  });
  response.end();
}
