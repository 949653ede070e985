/**
 * The codes of run outcomes no signal stops a pass with (outcome.ts, run-marker.ts, records.ts):
 * part of error-codes.ts's contract, apart from it so a reader closing a lost run
 * (io/store/run-ends.ts) loads no signal registry (issue 36.1). Pure.
 */
export const OUTCOME_ERROR_CODES = {
  completed: null,
  recovered_and_resumed: null,
  stopped: 'stopped',
  'spawn-failed': 'spawn_failed',
  'revive-exhausted': 'revive_exhausted',
  'owned-elsewhere': 'owned_elsewhere',
  'revive-refused': 'revive_refused',
  lost: 'supervisor_lost',
} as const;
