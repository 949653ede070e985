import type { SignalKind } from './kinds.ts';

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
  const about = input.target
    ? input.target.cmdline.join(' ') || input.target.comm
    : input.message;
  return `${input.kind}:${about.replace(/\d+(?:\.\d+)?/g, '#').slice(0, 500)}`;
}
