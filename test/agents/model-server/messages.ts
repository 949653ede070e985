import type { ServerResponse } from 'node:http';
import { openStream, sendEvent, sendError } from './sse.ts';
import type { Turn } from './script.ts';

/**
 * The Anthropic Messages API as Claude Code reads it (streamed): message_start, one content
 * block (text, or a Bash tool_use whose input arrives as input_json_delta), message_delta with
 * the stop reason, message_stop.
 */
export function answerMessages(
  response: ServerResponse,
  turn: Turn,
  request: { model?: string },
  serial: number,
): void {
  if (turn.kind === 'error') return sendError(response, turn.status, turn.body, turn.headers, turn.resetInSeconds);
  openStream(response, { 'request-id': `req_${serial}` });
  const usage = { input_tokens: 100, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  sendEvent(response, {
    type: 'message_start',
    message: {
      id: `msg_${serial}`,
      type: 'message',
      role: 'assistant',
      model: request.model ?? 'claude',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage,
    },
  });
  if (turn.kind === 'text') {
    sendEvent(response, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    sendEvent(response, { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: turn.text } });
  } else {
    sendEvent(response, {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id: `toolu_${serial}`, name: 'Bash', input: {} },
    });
    const input = JSON.stringify({ command: turn.command, description: 'Run the command' });
    sendEvent(response, {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'input_json_delta', partial_json: input },
    });
  }
  sendEvent(response, { type: 'content_block_stop', index: 0 });
  const stop = turn.kind === 'text' ? 'end_turn' : 'tool_use';
  sendEvent(response, {
    type: 'message_delta',
    delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens: 10 },
  });
  sendEvent(response, { type: 'message_stop' });
  response.end();
}
