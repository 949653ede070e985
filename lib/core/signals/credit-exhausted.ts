import { ExitCode } from '../../exit-codes.ts';
import { detectCreditExhausted } from '../detect/credit-exhausted.ts';
import type { Detector } from './detector.ts';
import type { SignalRow } from './signal-row.ts';

const creditExhausted: Detector = {
  init: null,
  detect: ({ output }) => detectCreditExhausted(output.creditExhausted),
};

export const CREDIT_EXHAUSTED = {
  means: "the agent's account is out of credit or past its spend limit: no reset will come, a person must add credit",
  detector: creditExhausted,
  raisedBy: 'lib/core/detect/credit-exhausted.ts',
  // Both CLIs say it and exit within a second.
  atExit: true,
  diagnosis: {
    action: 'STOP_FOR_CREDIT',
    rationale: 'no reset will come: waiting cannot help, and a restart or a revive only runs into the same wall',
  },
  endedBy: 'STOP_FOR_CREDIT',
  stall: 'settle',
  stallLog: 'error',
  status: { word: 'CREDIT EXHAUSTED', doing: 'stopping the agent (exit 69: a person must add credit)' },
  // The marker is settled: no start, by hand or by a unit, revives the session into the same wall.
  end: { outcome: 'credit-exhausted', exitCode: ExitCode.DO_NOT_RESTART, settles: true },
  errorCode: 'credit_exhausted',
  severity: 'critical',
  advice:
    "The agent's account has no credit left (or reached its spend limit): add credit or raise the limit in the provider's billing settings, then start the run again; deadman did not revive the session, so resume it by hand (its id is in `deadman status`) to keep its context.",
} as const satisfies SignalRow;
