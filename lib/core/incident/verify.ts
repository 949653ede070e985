/**
 * Did a recovery work? Pure: the caller passes what it saw since the action.
 * RESOLVED needs the target gone AND the work moving again: new output/events, or the root
 * exiting 0 after a completion event.
 */
export interface VerifyInput {
  actedAt: number;
  now: number;
  windowMs: number;
  targetGone: boolean;
  lastOutputAt: number;
  rootExit: { code: number | null; completed: boolean } | null;
}

export type VerifyVerdict = { verdict: 'RESOLVED' | 'NOT_RESOLVED'; detail: string } | { verdict: 'PENDING' };

export function verifyRecovery(input: VerifyInput): VerifyVerdict {
  const movedAgain = input.lastOutputAt > input.actedAt;
  const finishedCleanly = input.rootExit !== null && input.rootExit.code === 0 && input.rootExit.completed;
  if (input.targetGone && (movedAgain || finishedCleanly)) {
    return {
      verdict: 'RESOLVED',
      detail:
        finishedCleanly && !movedAgain
          ? 'target gone; the run then finished cleanly'
          : 'target gone; the agent produced new output',
    };
  }
  if (input.rootExit !== null && !finishedCleanly) {
    return {
      verdict: 'NOT_RESOLVED',
      detail: `the run ended (exit ${input.rootExit.code ?? 'by signal'}) without a completion`,
    };
  }
  if (input.now - input.actedAt < input.windowMs) return { verdict: 'PENDING' };
  return {
    verdict: 'NOT_RESOLVED',
    detail: input.targetGone
      ? 'target gone but no new output within the verify window'
      : 'target still present after the verify window',
  };
}

/**
 * After CANCEL_AND_RESUME or CHECKPOINT_AND_RESPAWN the recovery is judged by the session that
 * follows, not by the interruption: it moved on (a completed turn, a tool call that succeeded,
 * a workspace change) — RESOLVED; it raised the same signal again — NOT_RESOLVED (the caller
 * escalates: a second identical recovery would repeat what failed); it ended without either —
 * NOT_RESOLVED. Otherwise still PENDING. The same failure wins over a later completed turn:
 * what is checked first is what happened first, tick by tick.
 */
export interface ResumedEvidence {
  sameSignalAgain: boolean;
  turnCompleted: boolean;
  toolSucceeded: boolean;
  workspaceChanged: boolean;
  /** The resumed pass's end, once it is over. */
  ended: { code: number | null } | null;
}

export function verifyResumed(e: ResumedEvidence): VerifyVerdict {
  if (e.sameSignalAgain) return { verdict: 'NOT_RESOLVED', detail: 'the resumed session failed the same way again' };
  if (e.turnCompleted) return { verdict: 'RESOLVED', detail: 'the resumed session completed a turn' };
  if (e.toolSucceeded)
    return { verdict: 'RESOLVED', detail: 'the resumed session got a different result (a tool call succeeded)' };
  if (e.workspaceChanged) return { verdict: 'RESOLVED', detail: 'the resumed session changed the workspace' };
  if (e.ended)
    return {
      verdict: 'NOT_RESOLVED',
      detail: `the resumed session ended (exit ${e.ended.code ?? 'by signal'}) without showing it moved on`,
    };
  return { verdict: 'PENDING' };
}
