import { detectFinishedNotExited } from '../detect/finished-not-exited.ts';
import type { Detector } from './detector.ts';
import type { SignalRow } from './signal-row.ts';

/** Only for agents: a generic command's turn-end pattern marks a unit of work, not the end of the run. */
const finishedNotExited: Detector = {
  init: null,
  detect: ({ now, output, settings }) =>
    settings.agent()
      ? detectFinishedNotExited({
          now,
          finishedAt: output.finishedAt,
          failed: output.failed,
          graceMs: settings.exitGraceMs,
        })
      : null,
};

export const FINISHED_NOT_EXITED = {
  means: 'the agent printed its final result and did not exit within `exit_grace`',
  detector: finishedNotExited,
  raisedBy: 'lib/core/detect/finished-not-exited.ts',
  diagnosis: {
    action: 'END_FINISHED_RUN',
    rationale:
      'the agent printed its final result and then did not exit; its work is over, so stopping it loses nothing',
  },
  endedBy: 'END_FINISHED_RUN',
  stall: 'finish',
  stallLog: 'notice',
  status: { word: 'FINISHED', doing: 'stopping the agent' },
  // Stopped by deadman after its final result: its own exit would have carried that verdict.
  end: 'verdict',
  errorCode: 'finished_not_exited',
  // The agent's work is done: nothing is lost.
  severity: 'warning',
  advice:
    "The agent printed its final result and did not exit (a known Claude Code failure in stream-json mode): deadman ended the run with the result's verdict; update the agent, and lower `exit_grace` if the wait costs too much.",
} as const satisfies SignalRow;
