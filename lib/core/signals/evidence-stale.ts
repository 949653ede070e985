import type { Detector } from './detector.ts';
import { STALLED_END, WHOLE_RUN_STALL, type SignalRow } from './signal-row.ts';

/** The evidence gate (lib/supervise/run/evidence-gate.ts) says when a claim stayed dead past its grace. */
const evidenceStale: Detector = {
  init: null,
  detect: ({ facts }) => (facts.evidenceDead === null ? null : { message: facts.evidenceDead }),
};

export const EVIDENCE_STALE = {
  means: 'an evidence claim stopped holding (too old, missing) past its grace while the run looked busy',
  detector: evidenceStale,
  raisedBy: 'lib/supervise/run/evidence-gate.ts (lib/core/evidence/evidence.ts)',
  diagnosis: WHOLE_RUN_STALL,
  stall: 'configured',
  stallLog: 'error',
  end: STALLED_END,
  errorCode: 'evidence_stale',
  severity: 'critical',
  advice:
    'The evidence stopped moving while the run looked busy: check that the claim (path, freshness) still matches what the work writes, and that the work is not looping without result.',
} as const satisfies SignalRow;
