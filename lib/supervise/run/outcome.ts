import { shellExitCode } from '../../io/process/exit-status.ts';
import type { PassPorts } from '../ports.ts';
import type { Stall } from '../tick/supervisor.ts';
import type { Attempt } from '../../core/detect/no-progress.ts';
import { TURN_FAILED } from '../../core/revive/revive-opening.ts';
import { runErrorCode, type ErrorCode } from '../../core/incident/error-codes.ts';
import { signalRow, SIGNALS } from '../../core/signals/registry.ts';
import { actionRow } from '../../core/signals/actions.ts';
import { STALLED_END, type Outcome } from '../../core/signals/signal-row.ts';
import type { PendingVerification } from '../tick/resumed-verification.ts';

export type { Outcome };

export interface PassResult {
  exitCode: number;
  /** Re-raise this signal on ourselves after cleanup, so the service manager sees a clean stop. */
  reraise: NodeJS.Signals | null;
  outcome: Outcome;
  reason: string;
  /** The stable code of this end (error-codes.ts); null for a completion. Unset: the outcome's own code. */
  errorCode?: ErrorCode | null;
  /** Exit 0 with the adapter's completion and evidence holding: the marker may be cleared. */
  clean: boolean;
  /** Ended for what only a person can lift (spent credit): the marker is settled, never resumed. */
  settles?: boolean;
  sessionId: string | null;
  /** outcome `usage-limit`: when the limit resets (wall ms; null when the agent did not say), for the in-process wait. */
  usageResetAt?: number | null;
  /** outcome `usage-limit`: a throttle, not the plan's limit (a short bounded backoff, never exit 69). */
  usageThrottle?: boolean;
  /** outcome `cancel-resume`: what the resumed session is told. */
  resumeGuidance?: string;
  /** outcome `respawn`: the old session's last attempts and the files it changed, for the handoff. */
  handoffAttempts?: readonly Attempt[];
  handoffFiles?: readonly string[];
  /** The last lines of output (both streams), for the run's end alert. */
  outputTail?: readonly string[];
  /** The diagnostician's guidance for the fresh session, when it gave some. */
  handoffGuidance?: string;
  /** The incident the next pass must settle, when the stall's action is judged by it (its row's `judgedByNextPass`; resumed-verification.ts). */
  verifying?: PendingVerification;
}

/**
 * How a run ended, in order of precedence: deadman was stopped by a signal; it stopped a stall
 * (its kind's row says the outcome and exit code: a respawn, a halt, a resume, a usage wait, a
 * timeout, a plain stall — or the agent's own verdict); the child failed; the child exited 0 but
 * its evidence did not hold (green but dead); or it completed. Only the last, with the agent's
 * completion event, is clean.
 */
export type Seen = {
  stopSignal: NodeJS.Signals | null;
  stall: Stall | null;
  completed: boolean;
  sessionId: string | null;
  usageResetAt?: number | null;
  usageThrottle?: boolean;
  turnFailed?: string | null;
  history?: readonly Attempt[];
  filesChanged?: readonly string[];
  recovered?: boolean;
};

export type ChildExit = { code: number | null; signal: NodeJS.Signals | null };

const COMPLETIONS: ReadonlySet<Outcome> = new Set(['completed', 'recovered_and_resumed']);

/** The outcome, and its stable error code (error-codes.ts), with the effects of an exit 0: the evidence check on exit, and its incident when it fails. */
export async function conclude(
  exit: ChildExit,
  seen: Seen,
  ports: PassPorts,
  publishStatus: () => void,
): Promise<PassResult> {
  const held = classifyExit(exit, seen);
  if (!COMPLETIONS.has(held.outcome)) return held;
  const failing = await ports.evidence.checkOnExit();
  if (!failing) {
    publishStatus();
    return held;
  }
  const incident = ports.records.openIncident('EVIDENCE_FAILED', failing, { processes: [], lastLines: [] });
  ports.records.move(incident, 'escalate', 'the command exited 0 but its evidence did not hold');
  ports.logger.log('error', `EVIDENCE_FAILED (green but dead): ${failing}`);
  ports.notifier.send(`STATUS=${SIGNALS.EVIDENCE_FAILED.status.word} · ${failing}`);
  return classifyExit(exit, seen, failing);
}

/** Pure: how the pass ended, given what the evidence check on exit said (`failingEvidence`, null when it held or was not asked). */
export function classifyExit(exit: ChildExit, seen: Seen, failingEvidence: string | null = null): PassResult {
  const result = outcomeOf(exit, seen, failingEvidence);
  const errorCode = runErrorCode({
    outcome: result.outcome,
    stallKind: seen.stall?.kind,
    throttle: seen.usageThrottle,
    turnFailed: !exit.signal && Boolean(seen.turnFailed),
  });
  return { ...result, errorCode };
}

function outcomeOf(exit: ChildExit, seen: Seen, failingEvidence: string | null): PassResult {
  const base = { sessionId: seen.sessionId, clean: false, reraise: null };
  const end = seen.stall ? (signalRow(seen.stall.kind)?.end ?? STALLED_END) : undefined; // a kind without an end of its own stalls plainly
  // Stopped by deadman after its final result: its own exit would have carried that verdict.
  const childCode = end === 'verdict' ? (seen.completed ? 0 : 1) : shellExitCode(exit.code, exit.signal);
  if (seen.stopSignal) {
    return {
      ...base,
      exitCode: childCode,
      reraise: seen.stopSignal,
      outcome: 'stopped',
      reason: `stopped by ${seen.stopSignal}`,
    };
  }
  if (seen.stall && end && end !== 'verdict') {
    const { stall } = seen;
    return {
      ...base,
      clean: end.clean === true,
      ...(end.settles ? { settles: true } : {}),
      exitCode: end.exitCode,
      outcome: end.outcome,
      reason: stall.message,
      ...forNextPass(seen, stall),
    };
  }
  if (childCode !== 0) {
    // The agent's own word on its failed turn (an API error) beats the bare exit code: the revive prompt repeats it.
    const reason = exit.signal
      ? `child killed by ${exit.signal}`
      : seen.turnFailed
        ? `${TURN_FAILED}${seen.turnFailed.slice(0, 300)} (exit ${childCode})`
        : `child exited ${childCode}`;
    return { ...base, exitCode: childCode, outcome: 'failed', reason };
  }
  if (failingEvidence) {
    const { outcome, exitCode } = SIGNALS.EVIDENCE_FAILED.end;
    return { ...base, exitCode, outcome, reason: failingEvidence };
  }
  // The work completed after a recovery the pass before took, and this pass verified it.
  const outcome = seen.completed && seen.recovered ? 'recovered_and_resumed' : 'completed';
  return {
    ...base,
    exitCode: 0,
    clean: seen.completed,
    outcome,
    reason: seen.completed ? 'exited 0' : "exited 0 without the agent's completion event",
  };
}

/** What the next pass needs from this one (its kind's row's `nextPass`), and the incident it must settle when the ending action is judged by it. */
function forNextPass(seen: Seen, stall: Stall): Partial<PassResult> {
  const row = signalRow(stall.kind);
  const verifying =
    row?.endedBy && actionRow(row.endedBy).ends?.judgedByNextPass ? { verifying: { incident: stall.incident } } : {};
  switch (row?.nextPass) {
    case 'respawn':
      return {
        handoffAttempts: seen.history ?? [],
        handoffFiles: seen.filesChanged ?? [],
        ...(stall.guidance ? { handoffGuidance: stall.guidance } : {}),
        ...verifying,
      };
    case 'resume-with-guidance':
      return { resumeGuidance: stall.guidance ?? stall.message, ...verifying };
    case 'resume-after-reset':
      return { usageResetAt: seen.usageResetAt ?? null, usageThrottle: seen.usageThrottle === true, ...verifying };
    case undefined:
      return verifying;
  }
}
