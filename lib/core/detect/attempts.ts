import { NO_REPEAT, noteToolResult, type RepeatState } from './repeated-failure.ts';
import { FRESH_PROGRESS, noteAttempt, type Attempt, type AttemptProgress } from './no-progress.ts';

/** What REPEATED_FAILURE and NO_PROGRESS read: the failure streak and the progress count. */
export interface AttemptState {
  repeats: RepeatState;
  progress: AttemptProgress;
}

export const NO_ATTEMPTS: AttemptState = { repeats: NO_REPEAT, progress: FRESH_PROGRESS };

/**
 * Folds the tool calls and turns finished since the last tick, each with the workspace
 * fingerprint taken when it ended; `now` (taken only when needed) for those that carry none.
 */
export function foldAttempts(state: AttemptState, attempts: readonly Attempt[], now: () => string | null): AttemptState {
  let { repeats, progress } = state;
  let current: string | null | undefined;
  for (const attempt of attempts) {
    const workspace = attempt.workspace !== undefined ? attempt.workspace : (current = current === undefined ? now() : current);
    // A turn ending neither extends nor breaks a streak of identical tool failures.
    if (!attempt.turn) repeats = noteToolResult(repeats, { failure: attempt.ok ? null : attempt, workspace });
    progress = noteAttempt(progress, attempt, workspace);
  }
  return { repeats, progress };
}
