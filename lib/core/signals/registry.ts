import { CREDIT_EXHAUSTED } from './credit-exhausted.ts';
import { EVIDENCE_FAILED } from './evidence-failed.ts';
import { EVIDENCE_STALE } from './evidence-stale.ts';
import { FINISHED_NOT_EXITED } from './finished-not-exited.ts';
import { HALT_AND_ESCALATE } from './halted.ts';
import { HUNG_PROCESS } from './hung-process.ts';
import { NO_PROGRESS } from './no-progress.ts';
import { NOT_READY } from './not-ready.ts';
import { OUTPUT_INACTIVITY } from './output-inactivity.ts';
import { REPEATED_FAILURE } from './repeated-failure.ts';
import { REVIVE_REFUSED } from './revive-refused.ts';
import { SESSION_BUDGET_RISK } from './session-budget-risk.ts';
import { TIMEOUT } from './timeout.ts';
import { USAGE_LIMIT } from './usage-limit.ts';
import type { RecoveryAction } from './actions.ts';
import type { NextPass, Outcome, SignalRow, StallAction } from './signal-row.ts';

/**
 * The registry of signal kinds: every place deadman decides by kind — diagnosis, what a
 * diagnostician may answer, the stall, STATUS=, the pass's outcome and exit code, the next
 * pass, the error code, severity, advice — reads the kind's row here. Adding a kind is its
 * detector's rule, its row file beside these, and its line below (docs/design.md, "How to add a
 * signal"). The order is the docs' and the config's (`diagnose.signals`); detection has its own.
 */
export const SIGNALS = {
  OUTPUT_INACTIVITY,
  HUNG_PROCESS,
  EVIDENCE_STALE,
  EVIDENCE_FAILED,
  TIMEOUT,
  NOT_READY,
  HALT_AND_ESCALATE,
  FINISHED_NOT_EXITED,
  USAGE_LIMIT,
  CREDIT_EXHAUSTED,
  REPEATED_FAILURE,
  NO_PROGRESS,
  SESSION_BUDGET_RISK,
  REVIVE_REFUSED,
} as const satisfies Record<string, SignalRow>;

export type SignalKind = keyof typeof SIGNALS;

type Rows = typeof SIGNALS;
/** The kinds a detector raises each tick. */
export type DetectedKind = { [K in SignalKind]: Rows[K]['detector'] extends null ? never : K }[SignalKind];
/** The kinds whose evidence packet may go to a diagnostician (`diagnose.signals` picks among them). */
export type ConsultableKind = { [K in SignalKind]: Rows[K] extends { consult: object } ? K : never }[SignalKind];

/** The agent's own word first: spent credit, a usage limit or a finished result explains any silence after it. */
export const DETECTION_ORDER: readonly DetectedKind[] = [
  'CREDIT_EXHAUSTED',
  'USAGE_LIMIT',
  'SESSION_BUDGET_RISK',
  'FINISHED_NOT_EXITED',
  'REPEATED_FAILURE',
  'NO_PROGRESS',
  'HUNG_PROCESS',
  'OUTPUT_INACTIVITY',
  'TIMEOUT',
  'NOT_READY',
  'EVIDENCE_STALE',
];

export const SIGNAL_KINDS = Object.keys(SIGNALS) as SignalKind[];

/** The kinds `deadman attach` watches (their rows' `attached`), in detection order. */
export const ATTACHED_KINDS: readonly DetectedKind[] = DETECTION_ORDER.filter((kind) => 'attached' in SIGNALS[kind]);

/** The kinds whose incidents are refusals (their rows' `refusal`): a person's to acknowledge. */
export const REFUSAL_KINDS: readonly SignalKind[] = SIGNAL_KINDS.filter((kind) => 'refusal' in SIGNALS[kind]);

export const CONSULTABLE_SIGNALS = SIGNAL_KINDS.filter((kind) => 'consult' in SIGNALS[kind]) as unknown as readonly [
  ConsultableKind,
  ...ConsultableKind[],
];

/** The row of a kind read back from the store or a trace; undefined for one this deadman does not know (a newer one's). */
export function signalRow(kind: string): SignalRow | undefined {
  return Object.hasOwn(SIGNALS, kind) ? SIGNALS[kind as SignalKind] : undefined;
}

/** The kind whose stall an ending action enters (its row's `endedBy`). */
export function stallKindOf(action: RecoveryAction): SignalKind | undefined {
  return SIGNAL_KINDS.find((kind) => signalRow(kind)!.endedBy === action);
}

/** The STATUS= words of a stall action a kind owns; undefined for `withhold`/`exit`, which any kind may take. */
export function stallStatus(action: StallAction): { word: string; doing?: string } | undefined {
  return SIGNAL_KINDS.map((kind) => signalRow(kind)!).find((row) => row.stall === action)?.status;
}

/** Whether stopping for a stall action interrupts the agent (SIGINT) rather than terminating it. */
export function stallInterrupts(action: StallAction): boolean {
  return SIGNAL_KINDS.some((kind) => signalRow(kind)!.stall === action && signalRow(kind)!.interrupts === true);
}

/** The outcome a withheld or exit stall of this kind records at once (its row's `end`). */
export function stalledOutcome(kind: string): Outcome {
  const end = signalRow(kind)?.end;
  return typeof end === 'object' ? end.outcome : 'stalled';
}

/** How the run goes on after a pass with this outcome; undefined: the run ends. */
export function nextPassAfter(outcome: Outcome): NextPass | undefined {
  return SIGNAL_KINDS.map((kind) => signalRow(kind)!).find(
    (row) => typeof row.end === 'object' && row.end.outcome === outcome,
  )?.nextPass;
}
