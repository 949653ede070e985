import { detectNoProgress, FRESH_PROGRESS, noteAttempt, type AttemptProgress } from '../detect/no-progress.ts';
import { workspaceOf, type Detector } from './detector.ts';
import { STALLED_END, type SignalRow } from './signal-row.ts';

/** "At least 4 completed attempts" (issue 14). */
const NO_PROGRESS_THRESHOLD = 4;

/** Its state: the attempts since the workspace last changed that brought no new result. */
const noProgress: Detector<AttemptProgress> = {
  init: FRESH_PROGRESS,
  fold: (state, attempts, workspace) =>
    attempts.reduce((progress, attempt) => noteAttempt(progress, attempt, workspaceOf(attempt, workspace)), state),
  detect: (_input, progress) => detectNoProgress(progress, NO_PROGRESS_THRESHOLD),
};

export const NO_PROGRESS = {
  means: 'at least 4 completed attempts brought no new result and no workspace change',
  detector: noProgress,
  raisedBy: 'lib/core/detect/no-progress.ts',
  diagnosis: {
    action: 'OBSERVE',
    rationale:
      'the agent is busy but gets nowhere; no single step is wrong, so deadman records it for a person and lets the run go on',
  },
  consult: { OBSERVE: 'OBSERVE', CANCEL_AND_RESUME: 'CANCEL_AND_RESUME', HALT_AND_ESCALATE: 'HALT_AND_ESCALATE' },
  stall: 'configured',
  stallLog: 'error',
  end: STALLED_END,
  errorCode: 'no_progress',
  severity: 'critical',
  advice:
    'The agent kept working without changing the workspace or getting a new result: check the task is achievable as stated, and give it a check it can run that says what is missing.',
} as const satisfies SignalRow;
