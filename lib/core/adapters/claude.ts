import { z } from 'zod';
import type { Adapter, AgentEvent, ParsedLine } from './agent-events.ts';
import { claudeLineSchema, type ClaudeBlock, type ClaudeLine } from './claude-schema.ts';
import { outputTail } from './output-tail.ts';
import { parseEventLine, typeOfCutLine, type JsonObject } from './json-line.ts';
import {
  claudeCreditExhausted,
  claudeLimitOfText,
  claudeThrottle,
  mayBeClaudeLimitText,
} from './claude-usage-limit.ts';
import { isUnreadClaudeLine } from './unread-lines.ts';
import { withoutKey } from './without-key.ts';

const EXIT_CODE = /^(?:Error: )?Exit code (\d+)/;
/**
 * A tool result's text: only its start (a stated exit code) and its end (outputTail) are read.
 * The CLI repeats a Bash output in `tool_use_result.stdout`, never read: a long output was
 * parsed whole a second time (a 100 KB output: 70-80 µs a line, 20 µs with it cut). Each key
 * costs a search of the line, so rarer echoes (stderr, an error's text) are left whole.
 */
const LONG_VALUES = ['content', 'stdout'];
const NOTHING: ParsedLine = { recognized: true, events: [] };
/** The schema as one generated function, with the same answers (codex.ts says why). */
const claudeLine = z.compile(claudeLineSchema);

/**
 * `claude -p --output-format stream-json --verbose`: system/init, assistant, user, result.
 * `preCheck: false` parses every line, to prove the pre-check changes nothing (unread-lines.ts).
 */
export function createClaudeAdapter(preCheck = true): Adapter {
  const limits = turnLimit();

  const tools = toolCalls();

  function eventsOf(line: ClaudeLine): AgentEvent[] {
    switch (line.type) {
      case 'system':
        // One `-p` run is one user turn, and system/init opens it.
        if (line.subtype === 'init' && line.session_id)
          return limits.newTurn([{ type: 'session', sessionId: line.session_id }, { type: 'turn_started' }]);
        return systemEvents(line);
      case 'assistant': {
        const text = saidText(line);
        return limits.add([...apiErrorEvents(line.error, text), ...tools.started(line.message.content)], text);
      }
      case 'user':
        return typeof line.message.content === 'string' ? [] : tools.finished(line.message.content);
      case 'result':
        return limits.add(resultEvents(line), line.is_error ? line.result : undefined);
      case 'rate_limit_event':
        return limits.add(rateLimitEvents(line.rate_limit_info), undefined);
    }
  }

  return {
    name: 'claude',
    parseLine(line) {
      if (preCheck && isUnreadClaudeLine(line)) return NOTHING;
      const object = parseEventLine(line, LONG_VALUES);
      if (object === null) return { recognized: typeOfCutLine(line) !== null, events: [] };
      if (eventlessMessage(object)) return NOTHING;
      const parsed = claudeLine.safeParse(object);
      return parsed.success ? { recognized: true, events: eventsOf(parsed.data) } : NOTHING;
    },
  };
}

/** The tool calls of a stream: each started one kept until its result arrives. */
function toolCalls() {
  /** Tool calls still running: the name, so a Bash success can report exit code 0; the file an edit writes. */
  let openTools = new Map<string, { name: string; file: string | null }>();

  function toolsStarted(content: ClaudeBlock[]): AgentEvent[] {
    return content
      .filter((b) => b.type === 'tool_use' && b.id)
      .map((block) => {
        openTools.set(block.id!, { name: block.name ?? '', file: fileOf(block) });
        const command = block.input?.command;
        return { type: 'tool_started', toolId: block.id!, command: typeof command === 'string' ? command : null };
      });
  }

  function toolsFinished(content: ClaudeBlock[]): AgentEvent[] {
    return content
      .filter((b) => b.type === 'tool_result' && b.tool_use_id)
      .flatMap((block): AgentEvent[] => {
        const toolId = block.tool_use_id!;
        const tool = openTools.get(toolId);
        openTools = withoutKey(openTools, toolId);
        const ok = block.is_error !== true;
        const text = textOf(block.content);
        const stated = EXIT_CODE.exec(text);
        const exitCode = stated ? Number(stated[1]) : ok && tool?.name === 'Bash' ? 0 : null;
        const finished: AgentEvent = { type: 'tool_finished', toolId, exitCode, ok, outputTail: outputTail(text) };
        return ok && tool?.file ? [{ type: 'files_changed', paths: [tool.file] }, finished] : [finished];
      });
  }

  return { started: toolsStarted, finished: toolsFinished };
}

const FILE_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);

/** The file an editing tool call writes, else null. */
function fileOf(block: ClaudeBlock): string | null {
  if (!FILE_TOOLS.has(block.name ?? '')) return null;
  const path = block.input?.file_path ?? block.input?.notebook_path;
  return typeof path === 'string' ? path : null;
}

/**
 * A turn's usage limit, reported once: after a rate_limit_event (or the assistant's limit text)
 * the texts that follow say it again, with a vaguer reset. A new turn may hit it again.
 */
function turnLimit() {
  let reported = false;
  return {
    newTurn(events: AgentEvent[]): AgentEvent[] {
      reported = false;
      return events;
    },
    /** `text`: what the line said, when it may be Claude's limit text. */
    add(events: AgentEvent[], text: string | undefined): AgentEvent[] {
      const said = events.some((e) => e.type === 'credit_exhausted');
      const fromText = reported || said || text === undefined ? null : claudeLimitOfText(text);
      const all = fromText ? [fromText, ...events] : events;
      if (all.some((e) => e.type === 'usage_limit' || e.type === 'credit_exhausted')) reported = true;
      return all;
    },
  };
}

/**
 * An assistant message with no tool call, no API error and no text that may be the limit text,
 * or a user message with no tool result: most of a busy stream (text, thinking, prompts), and
 * known to carry no event without validating it.
 */
function eventlessMessage(object: JsonObject): boolean {
  const content = (object.message as JsonObject | null | undefined)?.content;
  if (object.type === 'assistant') {
    const limitText = hasBlock(
      content,
      (block) => block.type === 'text' && typeof block.text === 'string' && mayBeClaudeLimitText(block.text),
    );
    return object.error === undefined && !limitText && !hasBlock(content, (block) => block.type === 'tool_use');
  }
  return object.type === 'user' && !hasBlock(content, (block) => block.type === 'tool_result');
}

function hasBlock(content: unknown, matches: (block: JsonObject) => boolean): boolean {
  return (
    Array.isArray(content) &&
    content.some((block) => block !== null && typeof block === 'object' && matches(block as JsonObject))
  );
}

/** Success means `subtype == "success"` AND `is_error == false`: API errors come as subtype success. */
function resultEvents(line: Extract<ClaudeLine, { type: 'result' }>): AgentEvent[] {
  const ended: AgentEvent =
    line.subtype === 'success' && !line.is_error
      ? { type: 'turn_completed' }
      : { type: 'turn_failed', message: failureMessage(line) };
  if (!line.usage) return [ended];
  const u = line.usage;
  // Normalized like Codex: input counts cached tokens too, cached is the part read from cache.
  const usage = {
    inputTokens: u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens,
    cachedInputTokens: u.cache_read_input_tokens,
    outputTokens: u.output_tokens,
  };
  return [
    ended,
    { type: 'usage', usage, ...(line.total_cost_usd === undefined ? {} : { totalCostUsd: line.total_cost_usd }) },
  ];
}

/**
 * A rejected window with its `resetsAt` is the plan's limit, waited for even when no overage
 * takes over (`overageDisabledReason` only says why not, and is named); rejected with no reset
 * is a throttle.
 */
function rateLimitEvents(info: Extract<ClaudeLine, { type: 'rate_limit_event' }>['rate_limit_info']): AgentEvent[] {
  if (info.status !== 'rejected' && info.status !== 'denied') return [];
  if (info.resetsAt === undefined) return [claudeThrottle()];
  const overage = info.overageDisabledReason ? ` (no overage: ${info.overageDisabledReason})` : '';
  return [
    {
      type: 'usage_limit',
      resetsAtSec: info.resetsAt,
      resetsInSec: null,
      message: `Claude ${info.rateLimitType ?? 'usage'} limit reached${overage}`,
    },
  ];
}

function failureMessage(line: Extract<ClaudeLine, { type: 'result' }>): string {
  const errors = (line.errors ?? []).map(String).join('; ');
  return `${line.subtype}: ${errors || line.result || 'turn failed'}`;
}

/** A synthetic message's API error; `billing_error` names spent credit whatever the words say. */
function apiErrorEvents(error: unknown, text: string | undefined): AgentEvent[] {
  if (error === undefined) return [];
  const apiError: AgentEvent = { type: 'error', message: text || String(error) };
  return error === 'billing_error' ? [claudeCreditExhausted(), apiError] : [apiError];
}

/** A retry is a warning; a compaction (its `status` while it runs, its boundary once done) is what the agent is doing. */
function systemEvents(line: Extract<ClaudeLine, { type: 'system' }>): AgentEvent[] {
  if (line.subtype === 'api_retry') return [{ type: 'error', message: retryMessage(line) }];
  return line.subtype === 'compact_boundary' || (line.subtype === 'status' && line.status === 'compacting')
    ? [{ type: 'compacting' }]
    : [];
}

function retryMessage(line: Extract<ClaudeLine, { type: 'system' }>): string {
  const status = line.error_status ? ` (${line.error_status})` : '';
  return `API retry ${line.attempt ?? '?'}/${line.max_retries ?? '?'}${status}: ${String(line.error ?? 'error')}`;
}

/**
 * What an assistant message says, for the limit text and an API error's message. Undefined when
 * it has neither a text block nor an error: its joined text is empty or newlines, no limit text,
 * and nothing else reads it (a tool call's message, most of a busy stream's parsed lines).
 */
function saidText(line: Extract<ClaudeLine, { type: 'assistant' }>): string | undefined {
  const { content } = line.message;
  return line.error === undefined && !content.some((block) => block.text !== undefined) ? undefined : textOf(content);
}

/** Text of a tool result or message: a string, or the text blocks of a list. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b) => (typeof b?.text === 'string' ? b.text : '')).join('\n');
}
