/**
 * The incident vocabulary: the signals detectors raise and the typed actions deadman can take.
 * Diagnosis recommends one action for a signal; policy decides whether it may run.
 */

export type SignalKind = 'OUTPUT_INACTIVITY' | 'HUNG_PROCESS' | 'EVIDENCE_STALE' | 'EVIDENCE_FAILED' | 'TIMEOUT' | 'NOT_READY' | 'HALT_AND_ESCALATE';

export type RecoveryAction =
  /** Kill one proven-owned, hung descendant subtree; the agent carries on. */
  | 'TERMINATE_DESCENDANT_PROCESS'
  /** Nothing deadman can fix in place: apply the stall policy (withhold the watchdog, or exit 75). */
  | 'STALL_POLICY'
  /** Record and report only. */
  | 'REPORT';
