import { detectInactivity } from '../detect/inactivity.ts';
import type { Detector } from './detector.ts';
import { STALLED_END, WHOLE_RUN_STALL, type SignalRow } from './signal-row.ts';

const outputInactivity: Detector = {
  init: null,
  detect: ({ now, history, output, settings }) =>
    detectInactivity({
      now,
      limitMs: settings.inactivityMs,
      lastOutputAt: output.lastOutputAt,
      lastTreeActivityAt: history.lastTreeActivityAt,
      agent: settings.agentName?.() ?? null,
      compactingAt: output.compactingAt,
    }),
};

export const OUTPUT_INACTIVITY = {
  means: 'no output (with an agent adapter, no parsed event) and the tree not working for `inactivity`',
  detector: outputInactivity,
  raisedBy: 'lib/core/detect/inactivity.ts',
  diagnosis: WHOLE_RUN_STALL,
  attached: true,
  stall: 'configured',
  stallLog: 'error',
  end: STALLED_END,
  errorCode: 'output_inactivity',
  severity: 'critical',
  advice:
    'The command went silent with an idle process tree: check the last output lines for what it waited on (a prompt on stdin, a network call without a timeout); raise `inactivity` only if it legitimately works silently that long. An agent that went silent while compacting its context stalled inside the compaction (a known agent failure): resuming the session usually gets past it; if it recurs, start a fresh session with a smaller context.',
} as const satisfies SignalRow;
