/**
 * The incident vocabulary: the signals detectors raise and the typed actions deadman can take.
 * Diagnosis recommends one action for a signal; policy decides whether it may run.
 */

export type SignalKind = 'OUTPUT_INACTIVITY' | 'HUNG_PROCESS' | 'EVIDENCE_STALE' | 'EVIDENCE_FAILED' | 'TIMEOUT' | 'NOT_READY' | 'HALT_AND_ESCALATE'
  /** The agent printed its final result and did not exit within `exit_grace`. */
  | 'FINISHED_NOT_EXITED'
  /** The agent's turn failed on a plan or usage limit. */
  | 'USAGE_LIMIT'
  /** The same command failed the same way 3 times with the workspace unchanged. */
  | 'REPEATED_FAILURE'
  /** At least 4 completed attempts brought no new result and no workspace change. */
  | 'NO_PROGRESS'
  /** The agent's reported tokens or cost crossed `budget.tokens` / `budget.cost_usd`. */
  | 'SESSION_BUDGET_RISK'
  /** A revive marker deadman did not write, or that was changed since, was set aside unread. */
  | 'REVIVE_REFUSED';

export type RecoveryAction =
  /** Kill one proven-owned, hung descendant subtree; the agent carries on. */
  | 'TERMINATE_DESCENDANT_PROCESS'
  /** Nothing deadman can fix in place: apply the stall policy (withhold the watchdog, or exit 75). */
  | 'STALL_POLICY'
  /** Record and report only. */
  | 'REPORT'
  /** The agent's work is over: stop its tree and exit with its result's verdict. */
  | 'END_FINISHED_RUN'
  /** Stop the agent (SIGINT) if it still runs, wait for the limit's reset feeding the watchdog, then resume the session. */
  | 'WAIT_FOR_USAGE_RESET'
  /** Interrupt the agent (SIGINT, grace, the kill path) and resume its session with grounded guidance. */
  | 'CANCEL_AND_RESUME'
  /** Record it for a person; the run goes on untouched. */
  | 'OBSERVE'
  /** Stop the tree, record, exit 69: a person must look before it runs again. */
  | 'HALT_AND_ESCALATE'
  /** Write a handoff file, stop the agent, and start a fresh session with the task and the handoff. */
  | 'CHECKPOINT_AND_RESPAWN';
