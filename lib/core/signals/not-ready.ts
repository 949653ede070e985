import type { Detector } from './detector.ts';
import { STALLED_END, WHOLE_RUN_STALL, type SignalRow } from './signal-row.ts';

const notReady: Detector = {
  init: null,
  detect: ({ now, startedAt, facts, settings }) =>
    !facts.ready && now - startedAt > settings.readyTimeoutMs
      ? { message: `not ready after ${Math.round(settings.readyTimeoutMs / 1000)}s` }
      : null,
};

export const NOT_READY = {
  means: '`ready_pattern` or `ready_port` did not show readiness within `ready_timeout`',
  detector: notReady,
  raisedBy: 'lib/core/signals/not-ready.ts',
  diagnosis: WHOLE_RUN_STALL,
  stall: 'configured',
  stallLog: 'error',
  end: STALLED_END,
  errorCode: 'not_ready',
  severity: 'critical',
  advice:
    'The command never became ready: check `ready_pattern`/`ready_port` against what it really prints or opens, and raise `ready_timeout` if start-up is slow.',
} as const satisfies SignalRow;
