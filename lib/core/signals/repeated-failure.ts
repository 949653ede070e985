import { ExitCode } from '../../exit-codes.ts';
import { detectRepeatedFailure, NO_REPEAT, noteToolResult, type RepeatState } from '../detect/repeated-failure.ts';
import { workspaceOf, type Detector } from './detector.ts';
import type { SignalRow } from './signal-row.ts';

/** "At least 3 times" (issue 14): fewer is an agent still trying; more burns turns. */
const REPEAT_THRESHOLD = 3;

/** Its state: the streak of identical failures with an unchanged workspace. A turn ending neither extends nor breaks it. */
const repeatedFailure: Detector<RepeatState> = {
  init: NO_REPEAT,
  fold: (state, attempts, workspace) =>
    attempts.reduce(
      (streak, attempt) =>
        attempt.turn
          ? streak
          : noteToolResult(streak, {
              failure: attempt.ok ? null : attempt,
              workspace: workspaceOf(attempt, workspace),
            }),
      state,
    ),
  detect: (_input, streak) => detectRepeatedFailure(streak, REPEAT_THRESHOLD),
};

export const REPEATED_FAILURE = {
  means: 'the same command failed the same way 3 times with the workspace unchanged',
  detector: repeatedFailure,
  raisedBy: 'lib/core/detect/repeated-failure.ts',
  diagnosis: {
    action: 'CANCEL_AND_RESUME',
    rationale:
      'the agent keeps repeating a failing command without changing anything; interrupting it and resuming with what failed breaks the loop',
  },
  consult: { CANCEL_AND_RESUME: 'CANCEL_AND_RESUME', OBSERVE: 'OBSERVE', HALT_AND_ESCALATE: 'HALT_AND_ESCALATE' },
  endedBy: 'CANCEL_AND_RESUME',
  stall: 'cancel-resume',
  interrupts: true,
  stallLog: 'error',
  status: { word: 'REPEATED FAILURE', doing: 'interrupting the agent to resume it with guidance' },
  end: { outcome: 'cancel-resume', exitCode: ExitCode.STALLED_RESTART },
  nextPass: 'resume-with-guidance',
  errorCode: 'repeated_failure',
  severity: 'critical',
  advice:
    'The agent ran the same failing command again and again without changing anything: give it a way to see the failure (a test it can run alone, a clearer error), or split the task.',
} as const satisfies SignalRow;
