import { ExitCode } from '../../exit-codes.ts';
import type { Detector } from './detector.ts';
import type { SignalRow } from './signal-row.ts';

/** The evidence gate (lib/supervise/evidence-gate.ts) says when a claim stayed dead past its grace. */
const evidenceStale: Detector = {
  init: null,
  detect: ({ facts }) => (facts.evidenceDead === null ? null : { message: facts.evidenceDead }),
};

export const EVIDENCE_STALE = {
  means: 'an evidence claim stopped holding (too old, missing) past its grace while the run looked busy',
  detector: evidenceStale,
  raisedBy: 'lib/supervise/evidence-gate.ts (lib/core/evidence/evidence.ts)',
  diagnosis: { action: 'STALL_POLICY', rationale: 'the whole run stopped making progress and no single process is to blame; a restart (with revive) is the remedy' },
  stall: 'configured',
  stallLog: 'error',
  end: { outcome: 'stalled', exitCode: ExitCode.STALLED_RESTART },
  errorCode: 'evidence_stale',
  severity: 'critical',
  advice: 'The evidence stopped moving while the run looked busy: check that the claim (path, freshness) still matches what the work writes, and that the work is not looping without result.',
} as const satisfies SignalRow;
