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
    return { verdict: 'RESOLVED', detail: finishedCleanly && !movedAgain ? 'target gone; the run then finished cleanly' : 'target gone; the agent produced new output' };
  }
  if (input.rootExit !== null && !finishedCleanly) {
    return { verdict: 'NOT_RESOLVED', detail: `the run ended (exit ${input.rootExit.code ?? 'by signal'}) without a completion` };
  }
  if (input.now - input.actedAt < input.windowMs) return { verdict: 'PENDING' };
  return {
    verdict: 'NOT_RESOLVED',
    detail: input.targetGone ? 'target gone but no new output within the verify window' : 'target still present after the verify window',
  };
}
