/**
 * A workspace fingerprint that was not taken: git was not asked (a flood past its rate, one git
 * already waiting) or gave no answer in time (a loaded host). Such a moment is unknown — neither
 * "changed" nor "the same" — so REPEATED_FAILURE and NO_PROGRESS neither count nor keep a streak
 * on it: counted as the same it raised them falsely (an edit between two reruns unseen), counted
 * as a change it reset them for good on a busy host, where every few gits run out of time.
 */
const PREFIX = 'unmeasured-';

/** The n-th unmeasured moment of a process: a string of its own, so a trace keeps each apart. */
export function unmeasuredWorkspace(n: number): string {
  return `${PREFIX}${n}`;
}

export function isUnmeasured(workspace: string | null | undefined): boolean {
  return typeof workspace === 'string' && workspace.startsWith(PREFIX);
}
