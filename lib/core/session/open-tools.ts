import { parseJsonOrUndefined } from '../json/parse-json.ts';
/**
 * The tool calls a session file shows started and not yet answered, with the wall time of
 * the line that started each — what `deadman attach` has instead of the agent's stdout events.
 * Codex rollouts: `response_item` `function_call` / `custom_tool_call` until its `…_output`
 * with the same `call_id`; Claude transcripts: an assistant `tool_use` until the user
 * `tool_result` naming it. Pure and tolerant: a line that does not fit is skipped.
 */

export interface OpenToolCall {
  toolId: string;
  /** Wall ms of the line that started it, or null when the line had no timestamp. */
  startedAt: number | null;
}

interface LooseLine {
  timestamp?: unknown;
  type?: unknown;
  payload?: { type?: unknown; call_id?: unknown };
  message?: { content?: unknown };
}

export function openToolCalls(lines: readonly string[]): OpenToolCall[] {
  const open = new Map<string, number | null>();
  for (const text of lines) {
    const line = parse(text);
    if (line === null) continue;
    const at =
      typeof line.timestamp === 'string' && Number.isFinite(Date.parse(line.timestamp))
        ? Date.parse(line.timestamp)
        : null;
    for (const id of started(line)) open.set(id, at);
    for (const id of answered(line)) open.delete(id);
  }
  return [...open].map(([toolId, startedAt]) => ({ toolId, startedAt }));
}

function parse(text: string): LooseLine | null {
  const value = parseJsonOrUndefined(text);
  return typeof value === 'object' && value !== null ? (value as LooseLine) : null;
}

function codexCall(line: LooseLine, types: readonly string[]): string[] {
  const { payload } = line;
  return line.type === 'response_item' &&
    types.includes(payload?.type as string) &&
    typeof payload?.call_id === 'string'
    ? [payload.call_id]
    : [];
}

function claudeBlocks(line: LooseLine, role: string, type: string, key: 'id' | 'tool_use_id'): string[] {
  const content = line.type === role ? line.message?.content : undefined;
  if (!Array.isArray(content)) return [];
  return content.flatMap((block: { type?: unknown; id?: unknown; tool_use_id?: unknown }) =>
    block?.type === type && typeof block[key] === 'string' ? [block[key] as string] : [],
  );
}

function started(line: LooseLine): string[] {
  return [
    ...codexCall(line, ['function_call', 'custom_tool_call']),
    ...claudeBlocks(line, 'assistant', 'tool_use', 'id'),
  ];
}

function answered(line: LooseLine): string[] {
  return [
    ...codexCall(line, ['function_call_output', 'custom_tool_call_output']),
    ...claudeBlocks(line, 'user', 'tool_result', 'tool_use_id'),
  ];
}
