/** What stopping one owned subtree did: a type of the loop's process-tree port, which io's kill implements. */
export interface TerminateResult {
  /** Pids of the subtree that are gone now. */
  killed: number[];
  /** Pids still alive after SIGKILL. */
  survived: number[];
  /** Why nothing was signalled (the target failed its check), or null. */
  refused: string | null;
  /** Members passed over, each with the reason (reused pid, no longer owned, …). */
  skipped: Array<{ pid: number; reason: string }>;
}
