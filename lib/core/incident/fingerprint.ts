import type { RecoveryAction, SignalKind } from './kinds.ts';

/**
 * What makes two stalls "the same": the kind of signal and what it was about, without what
 * changes from one occurrence to the next (pids, durations, counts, times). A restart of a run
 * that stalls again with the same fingerprint is a recurrence of the open incident, not a new
 * one. Pure.
 */

export interface FingerprintInput {
  kind: SignalKind;
  message: string;
  /** The hung process, when there is one: its command line is what identifies the stall. */
  target?: { comm: string; cmdline: readonly string[] } | undefined;
}

export function stallFingerprint(input: FingerprintInput): string {
  const about = input.target ? input.target.cmdline.join(' ') || input.target.comm : input.message;
  return `${input.kind}:${about.replace(/\d+(?:\.\d+)?/g, '#').slice(0, 500)}`;
}

/**
 * What an action did, so it is never done twice in one run ("an action fingerprint is never
 * reused", seed Deadman's policy): the action, the stall it answered, and what it acted on —
 * the process by pid and start time (the same command hung again in a new process is a new
 * target), else the agent session (a fresh session after a respawn is a new one).
 */
export interface ActionFingerprintInput extends FingerprintInput {
  action: RecoveryAction;
  process?: { pid: number; startTime: number } | undefined;
  sessionId?: string | null | undefined;
}

export function actionFingerprint(input: ActionFingerprintInput): string {
  const on = input.process
    ? `process ${input.process.pid}@${input.process.startTime}`
    : `session ${input.sessionId ?? 'none'}`;
  return `${input.action}|${stallFingerprint(input)}|${on}`;
}
