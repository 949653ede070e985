/**
 * Under `deadman agent`, after the interactive agent hit its usage limit: did it continue by
 * itself once the limit reset (Claude Code's auto-continue), or does it sit waiting?
 *
 * "Resumed on its own" means a new turn in the session file after the limit's entry (the
 * auto-continue prompt, an answer, a turn start; session-limit.ts): the session moved on, by the
 * agent or by its person, and deadman sends nothing — a second "continue" would double the turn
 * and burn the fresh window. Not the stamp against the reset: the agents state the reset cut to
 * the minute, and an agent that continued at 8:55:19 for "resets 8:55pm" must not be prompted
 * again. When nothing came by the reset plus `graceMs`, deadman continues the session itself
 * (`continue`). A limit with no readable reset is left to the person at the terminal. Pure.
 */

/** The last usage limit an agent's session file records (lib/core/session/session-limit.ts reads it). */
export interface SessionLimit {
  /** Wall ms the agent recorded the limit. */
  saidAt: number;
  /** Wall ms the limit resets; null when the agent gave no reset it can be read from. */
  resetAt: number | null;
  /** Wall ms of the newest turn entry written after the limit's (a prompt, an answer, a turn start); null while there is none. */
  lastEntryAt: number | null;
}

export type AfterLimit = 'none' | 'waiting' | 'resumed' | 'continue';

export function afterUsageLimit(limit: SessionLimit | null, nowWall: number, graceMs: number): AfterLimit {
  if (limit === null) return 'none';
  if (limit.lastEntryAt !== null) return 'resumed';
  if (limit.resetAt === null) return 'waiting';
  return nowWall < limit.resetAt + graceMs ? 'waiting' : 'continue';
}
