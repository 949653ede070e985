import { ExitCode } from '../../exit-codes.ts';
import { formatDuration } from '../time/duration.ts';
import type { Detector } from './detector.ts';
import type { SignalRow } from './signal-row.ts';

const wallTimeout: Detector = {
  init: null,
  detect: ({ now, startedAt, settings }) =>
    settings.timeoutMs > 0 && now - startedAt >= settings.timeoutMs
      ? { message: `wall-time limit of ${formatDuration(settings.timeoutMs)} reached` }
      : null,
};

export const TIMEOUT = {
  means: 'the run reached its wall-time cap (`timeout`, `--timeout`)',
  detector: wallTimeout,
  raisedBy: 'lib/core/signals/timeout.ts',
  diagnosis: { action: 'STALL_POLICY', rationale: 'the run exceeded its wall-time cap' },
  // Never a withheld watchdog: the run must end with its own exit code.
  stall: 'exit',
  stallLog: 'error',
  end: { outcome: 'timeout', exitCode: ExitCode.TIMEOUT },
  errorCode: 'timeout',
  severity: 'critical',
  advice:
    'The run hit its wall-time cap: raise `timeout` if the work is legitimately longer, or split it so each run finishes within the cap.',
} as const satisfies SignalRow;
