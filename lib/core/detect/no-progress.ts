import { failureSignature, type ToolFailure } from './repeated-failure.ts';
import { isUnmeasured } from './unmeasured-workspace.ts';

/**
 * NO_PROGRESS: at least `threshold` completed attempts (tool calls and turns) with no change to
 * the workspace fingerprint and no new result — every output was one already seen since the
 * workspace last changed. The agent is busy and gets nowhere (a loop of reads, the same test
 * rerun between unrelated commands). A new result or a changed workspace restarts the count.
 * Pure; the fingerprint comes from the edge, null outside a git work tree.
 */

export interface Attempt extends ToolFailure {
  ok: boolean;
  /** A completed turn: an attempt, but no result of its own (its tool calls are the results). */
  turn?: true;
  /** The workspace fingerprint taken when it ended (null outside git); absent when none was taken then. */
  workspace?: string | null;
}

/** What NO_PROGRESS remembers of the agent's attempts since the workspace last changed. */
export interface AttemptProgress {
  workspace: string | null;
  seen: ReadonlySet<string>;
  /** Attempts since the last change whose result had been seen before. */
  repeats: number;
}

export const FRESH_PROGRESS: AttemptProgress = { workspace: null, seen: new Set(), repeats: 0 };

/**
 * Distinct results remembered since the workspace last changed. Each new one copies the set, so
 * an unbounded set made a flood of distinct tool results quadratic (40,000 results: 170 s of
 * CPU). Past the bound the memory starts over: an old result seen again then counts as new,
 * which can only delay NO_PROGRESS, never raise it falsely.
 */
export const MAX_SEEN_RESULTS = 256;

export function noteAttempt(state: AttemptProgress, attempt: Attempt, workspace: string | null): AttemptProgress {
  const result = `${attempt.ok ? 'ok' : 'failed'}\u0000${failureSignature(attempt)}`;
  // An unmeasured workspace is unknown: a new result still restarts the count, a repeat is not counted.
  if (isUnmeasured(workspace))
    return attempt.turn || state.seen.has(result) ? state : { ...remembered(state, result), repeats: 0 };
  if (workspace !== state.workspace)
    return { workspace, seen: attempt.turn ? new Set() : new Set([result]), repeats: attempt.turn ? 1 : 0 };
  if (!attempt.turn && !state.seen.has(result)) return { ...remembered(state, result), repeats: 0 };
  return { ...state, repeats: state.repeats + 1 };
}

function remembered(state: AttemptProgress, result: string): AttemptProgress {
  const seen = state.seen.size < MAX_SEEN_RESULTS ? new Set([...state.seen, result]) : new Set([result]);
  return { ...state, seen };
}

export function detectNoProgress(state: AttemptProgress, threshold: number): { message: string } | null {
  if (threshold <= 0 || state.repeats < threshold) return null;
  return { message: `${state.repeats} attempts in a row produced no new result and no change to the workspace` };
}
