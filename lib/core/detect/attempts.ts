import { NO_REPEAT, noteToolResult, type RepeatState } from './repeated-failure.ts';
import { FRESH_PROGRESS, noteAttempt, type Attempt, type ProgressState } from './no-progress.ts';

/** What REPEATED_FAILURE and NO_PROGRESS read: the failure streak and the progress count. */
export interface AttemptState {
  repeats: RepeatState;
  progress: ProgressState;
}

export const NO_ATTEMPTS: AttemptState = { repeats: NO_REPEAT, progress: FRESH_PROGRESS };

/** Folds the tool calls and turns finished since the last tick, all seen with one workspace fingerprint. */
export function foldAttempts(state: AttemptState, attempts: readonly Attempt[], workspace: string | null): AttemptState {
  let { repeats, progress } = state;
  for (const attempt of attempts) {
    // A turn ending neither extends nor breaks a streak of identical tool failures.
    if (!attempt.turn) repeats = noteToolResult(repeats, { failure: attempt.ok ? null : attempt, workspace });
    progress = noteAttempt(progress, attempt, workspace);
  }
  return { repeats, progress };
}
