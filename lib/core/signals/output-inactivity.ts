import { ExitCode } from '../../exit-codes.ts';
import { detectInactivity } from '../detect/inactivity.ts';
import type { Detector } from './detector.ts';
import type { SignalRow } from './signal-row.ts';

const outputInactivity: Detector = {
  init: null,
  detect: ({ now, history, output, settings }) =>
    detectInactivity({ now, limitMs: settings.inactivityMs, lastOutputAt: output.lastOutputAt, lastTreeActivityAt: history.lastTreeActivityAt, agent: settings.agentName?.() ?? null }),
};

export const OUTPUT_INACTIVITY = {
  means: 'no output (with an agent adapter, no parsed event) and the tree not working for `inactivity`',
  detector: outputInactivity,
  raisedBy: 'lib/core/detect/inactivity.ts',
  diagnosis: { action: 'STALL_POLICY', rationale: 'the whole run stopped making progress and no single process is to blame; a restart (with revive) is the remedy' },
  stall: 'configured',
  stallLog: 'error',
  end: { outcome: 'stalled', exitCode: ExitCode.STALLED_RESTART },
  errorCode: 'output_inactivity',
  severity: 'critical',
  advice: 'The command went silent with an idle process tree: check the last output lines for what it waited on (a prompt on stdin, a network call without a timeout); raise `inactivity` only if it legitimately works silently that long.',
} as const satisfies SignalRow;
