import type { SignalKind } from './kinds.ts';

/**
 * One stable, machine-readable code per way a run or an incident ends, for a caller to branch
 * on (a dashboard, a webhook receiver, a wrapper script) without parsing messages — the idea of
 * paperclip's `codex_output_inactivity_watchdog`. Stored in `runs.error_code` and
 * `incidents.error_code`, shown by `report --json`, `status --json` and alerts. The codes are
 * a contract: a new way to end adds a code; an existing code never changes meaning. A clean
 * completion has none (null). Pure.
 */

export const SIGNAL_ERROR_CODES = {
  OUTPUT_INACTIVITY: 'output_inactivity',
  HUNG_PROCESS: 'hung_process',
  EVIDENCE_STALE: 'evidence_stale',
  EVIDENCE_FAILED: 'evidence_failed',
  TIMEOUT: 'timeout',
  NOT_READY: 'not_ready',
  HALT_AND_ESCALATE: 'halted',
  FINISHED_NOT_EXITED: 'finished_not_exited',
  USAGE_LIMIT: 'usage_limit',
  REPEATED_FAILURE: 'repeated_failure',
  NO_PROGRESS: 'no_progress',
  SESSION_BUDGET_RISK: 'session_budget_risk',
  REVIVE_REFUSED: 'revive_refused',
} as const satisfies Record<SignalKind, string>;

/** Run outcomes whose code does not depend on what stopped them (outcome.ts, run-marker.ts, records.ts). */
const OUTCOME_ERROR_CODES = {
  completed: null,
  recovered_and_resumed: null,
  'green-but-dead': 'evidence_failed',
  timeout: 'timeout',
  stopped: 'stopped',
  'spawn-failed': 'spawn_failed',
  'cancel-resume': 'repeated_failure',
  halted: 'halted',
  respawn: 'session_budget_risk',
  'revive-exhausted': 'revive_exhausted',
  'owned-elsewhere': 'owned_elsewhere',
  'revive-refused': 'revive_refused',
  lost: 'supervisor_lost',
} as const;

/** Codes only a run's end has: a throttle, a failed turn, a child that failed on its own. */
const RUN_ONLY_CODES = ['rate_limited', 'turn_failed', 'child_failed', 'stalled'] as const;

export type ErrorCode = (typeof SIGNAL_ERROR_CODES)[SignalKind] | NonNullable<(typeof OUTCOME_ERROR_CODES)[keyof typeof OUTCOME_ERROR_CODES]> | (typeof RUN_ONLY_CODES)[number];

export function signalErrorCode(kind: string): ErrorCode | null {
  return (SIGNAL_ERROR_CODES as Record<string, ErrorCode>)[kind] ?? null;
}

export interface RunEnd {
  outcome: string;
  /** The signal that stopped the pass (a stall, a usage limit, …), when one did. */
  stallKind?: string | null | undefined;
  /** outcome `usage-limit`: the API throttled, the plan is not spent. */
  throttle?: boolean | undefined;
  /** outcome `failed`: the agent said its turn failed (an API error), not just its exit code. */
  turnFailed?: boolean | undefined;
}

/** The code of a run's end; null for a completion. An outcome this table does not know (a newer deadman's) gets none rather than a wrong one. */
export function runErrorCode(end: RunEnd): ErrorCode | null {
  switch (end.outcome) {
    case 'usage-limit': return end.throttle ? 'rate_limited' : 'usage_limit';
    case 'failed': return end.turnFailed ? 'turn_failed' : 'child_failed';
    case 'stalled': return signalErrorCode(end.stallKind ?? '') ?? 'stalled';
  }
  return (OUTCOME_ERROR_CODES as Record<string, ErrorCode | null>)[end.outcome] ?? null;
}
