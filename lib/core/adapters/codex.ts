import { z } from 'zod';
import type { Adapter, AgentEvent, ParsedLine, Usage } from './agent-events.ts';
import { codexEventSchema, type CodexEvent, type CodexItem, type CodexUsage } from './codex-schema.ts';
import { outputTail } from './output-tail.ts';
import { fieldOfCutLine, parseEventLine, typeOfCutLine, type JsonObject } from './json-line.ts';
import { usageLimitOf } from './codex-usage-limit.ts';
import { isUnreadCodexLine } from './unread-lines.ts';

/** Item types that run something on the agent's behalf: their start and end are tool events. */
const TOOL_ITEMS = new Set(['command_execution', 'mcp_tool_call', 'file_change']);
/** Codex's item while it compacts the thread's context (named in the 0.171 binary; not yet seen in a recording). */
const COMPACTION_ITEM = 'context_compaction';
const CUT_ITEM =
  /"item"\s*:\s*\{\s*"id"\s*:\s*"([^"]{1,100})"\s*,\s*"type"\s*:\s*"(?:command_execution|mcp_tool_call|file_change)"/;
/** Only the end of a command's output is kept (outputTail). */
const LONG_VALUES = ['aggregated_output'];
const NOTHING: ParsedLine = { recognized: true, events: [] };

/**
 * The schema as one function zod generates from it (z.compile), with the same answers: a line
 * it cannot decide goes to zod's own parser. Validating each line through zod's tree of schemas
 * cost 1.5-2 µs a line in a fresh process, most of the adapter's time on a 10 MB stream (issue 36).
 */
const codexEvent = z.compile(codexEventSchema);

const NO_USAGE: Usage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };

/**
 * How this process's thread began. Codex's totals are cumulative over the whole thread, earlier
 * processes included, so a resumed thread (`exec … resume <id>`) starts from the total its last
 * recorded turn reported (`earlierTotal`, from deadman's database). When that is not known (no
 * database, a session resumed outside deadman) the first total it reports is the baseline only
 * and charges nothing: one turn uncounted rather than the whole session charged to one turn.
 */
export type CodexStart = { resumed: false } | { resumed: true; sessionId: string | null; earlierTotal: Usage | null };

/**
 * `codex exec --json`: thread.started, turn.*, item.*, error. `preCheck: false` parses every
 * line, to prove the pre-check changes nothing (unread-lines.ts).
 */
export function createCodexAdapter(start: CodexStart = { resumed: false }, preCheck = true): Adapter {
  const usage = usageCounter(start);

  function eventsOf(event: CodexEvent): AgentEvent[] {
    switch (event.type) {
      case 'thread.started':
        usage.threadStarted(event.thread_id);
        return [{ type: 'session', sessionId: event.thread_id }];
      case 'turn.started':
        return [{ type: 'turn_started' }];
      case 'turn.completed':
        return [{ type: 'turn_completed' }, ...(event.usage ? usage.delta(event.usage) : [])];
      case 'turn.failed': {
        const message = event.error?.message ?? 'turn failed';
        return [...usageLimitOf(message, true), { type: 'turn_failed', message }];
      }
      case 'error':
        return [...usageLimitOf(event.message), { type: 'error', message: event.message }];
      case 'item.started':
        return itemStarted(event.item);
      case 'item.completed':
        return itemCompleted(event.item);
      case 'item.updated':
        return [];
    }
  }

  return {
    name: 'codex',
    parseLine(line) {
      if (preCheck && isUnreadCodexLine(line)) return NOTHING;
      const object = parseEventLine(line, LONG_VALUES);
      if (object === null) return cutLine(line);
      if (eventlessItem(object)) return NOTHING;
      const parsed = codexEvent.safeParse(object);
      return parsed.success ? { recognized: true, events: eventsOf(parsed.data) } : NOTHING;
    },
  };
}

/** Codex reports each thread's running total; the usage events carry what each turn added. */
function usageCounter(start: CodexStart) {
  let thread = '';
  const totalsByThread = new Map<string, Usage>();

  /** Before the thread's first total: zero for a new thread; for the resumed one, its earlier total or this first total itself. */
  function previousTotal(total: Usage): Usage {
    const seen = totalsByThread.get(thread);
    if (seen) return seen;
    if (!start.resumed || (start.sessionId !== null && start.sessionId !== thread)) return NO_USAGE;
    return start.earlierTotal ?? total;
  }

  function delta(usage: CodexUsage): AgentEvent[] {
    const total = {
      inputTokens: usage.input_tokens,
      cachedInputTokens: usage.cached_input_tokens,
      outputTokens: usage.output_tokens,
    };
    const previous = previousTotal(total);
    totalsByThread.set(thread, total);
    const delta: Usage = {
      inputTokens: Math.max(0, total.inputTokens - previous.inputTokens),
      cachedInputTokens: Math.max(0, total.cachedInputTokens - previous.cachedInputTokens),
      outputTokens: Math.max(0, total.outputTokens - previous.outputTokens),
    };
    return delta.inputTokens + delta.cachedInputTokens + delta.outputTokens > 0
      ? [{ type: 'usage', usage: delta }]
      : [];
  }

  return {
    /** Totals that follow are this thread's. */
    threadStarted(id: string): void {
      thread = id;
    },
    delta,
  };
}

/**
 * An item event that can become no tool event or warning whatever its fields (a message, the
 * agent's reasoning, any update): a third or more of a busy stream, known without validating it.
 */
function eventlessItem(object: JsonObject): boolean {
  if (object.type === 'item.updated') return true;
  if (object.type !== 'item.started' && object.type !== 'item.completed') return false;
  const type = (object.item as JsonObject | null | undefined)?.type;
  return (
    typeof type === 'string' &&
    !TOOL_ITEMS.has(type) &&
    type !== COMPACTION_ITEM &&
    !(type === 'error' && object.type === 'item.completed')
  );
}

function itemStarted(item: CodexItem): AgentEvent[] {
  if (item.type === COMPACTION_ITEM) return [{ type: 'compacting' }];
  return TOOL_ITEMS.has(item.type) ? [{ type: 'tool_started', toolId: item.id, command: toolCommand(item) }] : [];
}

function itemCompleted(item: CodexItem): AgentEvent[] {
  if (item.type === COMPACTION_ITEM) return [{ type: 'compacting' }];
  if (item.type === 'error') return item.message ? [{ type: 'error', message: item.message }] : [];
  if (!TOOL_ITEMS.has(item.type)) return [];
  const ok = item.status === 'completed' && !item.error;
  const tail = item.aggregated_output === undefined ? {} : { outputTail: outputTail(item.aggregated_output) };
  const finished: AgentEvent = {
    type: 'tool_finished',
    toolId: item.id,
    exitCode: item.exit_code ?? null,
    ok,
    ...tail,
  };
  return ok && item.changes?.length
    ? [{ type: 'files_changed', paths: item.changes.map((c) => c.path) }, finished]
    : [finished];
}

function toolCommand(item: CodexItem): string | null {
  if (item.type === 'command_execution') return item.command ?? null;
  if (item.type === 'mcp_tool_call' && item.server && item.tool) return `${item.server}.${item.tool}`;
  return null;
}

/**
 * A line cut by the size limit: still the agent speaking. A cut `item.completed` of a tool
 * (a huge aggregated_output) still closes that tool; its outcome is unknown.
 */
function cutLine(line: string): ParsedLine {
  const type = typeOfCutLine(line);
  if (type === null) return { recognized: false, events: [] };
  const toolId = type === 'item.completed' ? fieldOfCutLine(line, CUT_ITEM) : null;
  return { recognized: true, events: toolId ? [{ type: 'tool_finished', toolId, exitCode: null, ok: false }] : [] };
}
