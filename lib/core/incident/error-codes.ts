import type { SignalKind } from './kinds.ts';
import { signalRow, SIGNAL_KINDS, SIGNALS } from '../signals/registry.ts';
import { OUTCOME_ERROR_CODES } from './outcome-codes.ts';

/**
 * One stable, machine-readable code per way a run or an incident ends, for a caller to branch
 * on (a dashboard, a webhook receiver, a wrapper script) without parsing messages — the idea of
 * paperclip's `codex_output_inactivity_watchdog`. Stored in `runs.error_code` and
 * `incidents.error_code`, shown by `report --json`, `status --json` and alerts. The codes are
 * a contract: a new way to end adds a code; an existing code never changes meaning. A clean
 * completion has none (null). Pure.
 */

/** Each kind's code, from its row. */
export const SIGNAL_ERROR_CODES = Object.fromEntries(SIGNAL_KINDS.map((kind) => [kind, SIGNALS[kind].errorCode])) as {
  [K in SignalKind]: (typeof SIGNALS)[K]['errorCode'];
};

/** The outcomes a kind's stall ends a pass with, each with that kind's code (`stalled` takes the stalled kind's). */
const STALL_OUTCOME_CODES = Object.fromEntries(
  SIGNAL_KINDS.flatMap((kind) => {
    const { end, errorCode } = signalRow(kind)!;
    return typeof end === 'object' && end.outcome !== 'stalled' ? [[end.outcome, errorCode]] : [];
  }),
);

/** Codes only a run's end has: a throttle, a failed turn, a child that failed on its own. */
const RUN_ONLY_CODES = ['rate_limited', 'turn_failed', 'child_failed', 'stalled'] as const;

export type ErrorCode =
  | (typeof SIGNAL_ERROR_CODES)[SignalKind]
  | NonNullable<(typeof OUTCOME_ERROR_CODES)[keyof typeof OUTCOME_ERROR_CODES]>
  | (typeof RUN_ONLY_CODES)[number];

const ENDED_OUTCOME_CODES: Record<string, ErrorCode | null> = {
  ...(STALL_OUTCOME_CODES as Record<string, ErrorCode>),
  ...OUTCOME_ERROR_CODES,
};

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
    case 'usage-limit':
      return end.throttle ? 'rate_limited' : 'usage_limit';
    case 'failed':
      return end.turnFailed ? 'turn_failed' : 'child_failed';
    case 'stalled':
      return signalErrorCode(end.stallKind ?? '') ?? 'stalled';
  }
  return ENDED_OUTCOME_CODES[end.outcome] ?? null;
}
