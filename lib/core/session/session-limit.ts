import { z } from 'zod';
import type { AgentKind } from '../adapters/program.ts';
import { claudeLimitOfText } from '../adapters/claude-usage-limit.ts';
import { usageLimitOf } from '../adapters/codex-usage-limit.ts';
import type { AgentEvent } from '../adapters/agent-events.ts';
import { parseJsonOrUndefined } from '../json/parse-json.ts';
import { usageResetAt } from '../detect/usage-limit.ts';
import type { SessionLimit } from '../detect/auto-continue.ts';

/**
 * The last usage limit an interactive agent's session file records, and what the agent wrote
 * after it: what `deadman agent` needs to tell an agent that continued by itself at the reset
 * (Claude Code's "continue automatically at usage limit", on by default since 2.1.234) from one
 * that waits for its person (auto-continue.ts). Claude's transcript holds the limit as an
 * API-error `assistant` entry ("You've hit your 5-hour limit · resets 8:55pm (UTC)"), Codex's
 * rollout as an `event_msg` `error`; every entry carries its wall-clock `timestamp`. The limit's
 * words are read by the stream adapters' own parsers. Pure.
 */

/** The fields of a transcript or rollout entry read here; anything else is ignored. */
const sessionEntrySchema = z.object({
  timestamp: z.string().optional(),
  type: z.string(),
  isApiErrorMessage: z.boolean().optional().catch(undefined),
  error: z.unknown().optional(),
  message: z.object({ content: z.unknown() }).partial().nullish().catch(undefined),
  payload: z.object({ type: z.string().optional(), message: z.string().optional() }).nullish().catch(undefined),
});

type SessionEntry = z.output<typeof sessionEntrySchema>;

export function lastUsageLimit(agent: AgentKind, lines: readonly string[]): SessionLimit | null {
  let limit: SessionLimit | null = null;
  for (const line of lines) {
    const parsed = sessionEntrySchema.safeParse(parseJsonOrUndefined(line));
    if (!parsed.success) continue;
    const at = parsed.data.timestamp === undefined ? Number.NaN : Date.parse(parsed.data.timestamp);
    if (Number.isNaN(at)) continue;
    const said = limitOf(agent, parsed.data);
    if (said && !said.throttle)
      limit = { saidAt: at, resetAt: usageResetAt({ ...said, at: 0 }, 0, at), lastEntryAt: null };
    else if (limit && isTurnEntry(agent, parsed.data)) limit.lastEntryAt = Math.max(limit.lastEntryAt ?? at, at);
  }
  return limit;
}

function limitOf(agent: AgentKind, entry: SessionEntry): Extract<AgentEvent, { type: 'usage_limit' }> | null {
  if (agent === 'codex') {
    const message = entry.type === 'event_msg' && entry.payload?.type === 'error' ? entry.payload.message : undefined;
    const [event] = message === undefined ? [] : usageLimitOf(message, true);
    return event?.type === 'usage_limit' ? event : null;
  }
  if (entry.type !== 'assistant' || (entry.isApiErrorMessage !== true && entry.error === undefined)) return null;
  const event = claudeLimitOfText(textOf(entry.message?.content));
  return event?.type === 'usage_limit' ? event : null;
}

/** An entry of the conversation going on: Claude's prompt or answer (not an API error), Codex's turn start, prompt or answer. */
function isTurnEntry(agent: AgentKind, entry: SessionEntry): boolean {
  if (agent === 'claude')
    return (
      (entry.type === 'user' || entry.type === 'assistant') &&
      entry.isApiErrorMessage !== true &&
      entry.error === undefined
    );
  if (entry.type === 'response_item') return true;
  return (
    entry.type === 'event_msg' && ['task_started', 'user_message', 'agent_message'].includes(entry.payload?.type ?? '')
  );
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content)
    ? content.map((block) => (typeof block?.text === 'string' ? block.text : '')).join('\n')
    : '';
}
