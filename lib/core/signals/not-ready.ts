import { ExitCode } from '../../exit-codes.ts';
import type { Detector } from './detector.ts';
import type { SignalRow } from './signal-row.ts';

const notReady: Detector = {
  init: null,
  detect: ({ now, startedAt, facts, settings }) =>
    !facts.ready && now - startedAt > settings.readyTimeoutMs ? { message: `not ready after ${Math.round(settings.readyTimeoutMs / 1000)}s` } : null,
};

export const NOT_READY = {
  means: '`ready_pattern` or `ready_port` did not show readiness within `ready_timeout`',
  detector: notReady,
  raisedBy: 'lib/core/signals/not-ready.ts',
  diagnosis: { action: 'STALL_POLICY', rationale: 'the whole run stopped making progress and no single process is to blame; a restart (with revive) is the remedy' },
  stall: 'configured',
  stallLog: 'error',
  end: { outcome: 'stalled', exitCode: ExitCode.STALLED_RESTART },
  errorCode: 'not_ready',
  severity: 'critical',
  advice: 'The command never became ready: check `ready_pattern`/`ready_port` against what it really prints or opens, and raise `ready_timeout` if start-up is slow.',
} as const satisfies SignalRow;
