/**
 * The typed actions deadman can take, one row each: what it does, the policy rule that says
 * whether it may run now, whether it is ever taken twice for one stall, and — for the actions
 * that end this agent process on the agent's own word — what the incident says while and after
 * it is carried out. A signal's row (registry.ts) names the action its diagnosis recommends;
 * only policy's answer is ever acted on. Pure.
 *
 * HALT_AND_ESCALATE is both an action (this table) and a signal kind (halted.ts): the kind is
 * the stall the action enters, and the incident a spent revive budget opens. Both names are
 * stored and shown, so they stay; the code tells them apart by the table it reads.
 */

/** The actions an external diagnostician may name (its contract, incident/diagnosis-schema.ts). */
export const DIAGNOSIS_ACTIONS = [
  'OBSERVE',
  'TERMINATE_DESCENDANT_PROCESS',
  'CANCEL_AND_RESUME',
  'CHECKPOINT_AND_RESPAWN',
  'HALT_AND_ESCALATE',
] as const;
export type DiagnosisAction = (typeof DIAGNOSIS_ACTIONS)[number];

export interface PolicyInput {
  recommended: RecoveryAction;
  autoRecover: boolean;
  /** The agent's session id, when it reported one: a resume needs it. */
  sessionId?: string | null;
  /** This action, on this stall and target, was already taken in this run (its action fingerprint, fingerprint.ts). */
  alreadyTaken?: boolean;
  /** Why the hung target may not be the tool's (tool-ownership.ts): killing it is a person's call. */
  targetUnproven?: string | null;
}

export type PolicyDecision =
  | { verdict: 'allow'; action: RecoveryAction; reason: string }
  | { verdict: 'await_approval'; action: RecoveryAction; reason: string }
  /** Never acted on: the incident escalates to a person, the agent is left alone. */
  | { verdict: 'deny'; action: RecoveryAction; reason: string };

type Verdict = Omit<PolicyDecision, 'action'>;

/** The incident's words while the action stops the agent and once it is down (ending-actions.ts). */
export interface Ending {
  doing: string;
  done: string;
  /** An escalation: the incident stays for a person, it is not resolved. */
  halts?: true;
  /** The incident stays VERIFYING until the session that follows settles it (resumed-verification.ts). */
  judgedByNextPass?: true;
}

export interface ActionRow {
  /** What it does, for the docs. */
  does: string;
  policy(input: PolicyInput): Verdict;
  /** Changes the agent's course: one that did not help is never taken again for the same stall and target. */
  neverReused?: true;
  /** Ends this agent process on the agent's own word; the stall it enters is the row whose `endedBy` names it. */
  ends?: Ending;
}

const allow = (reason: string): Verdict => ({ verdict: 'allow', reason });
const awaitApproval = (reason: string): Verdict => ({ verdict: 'await_approval', reason });
const recoveryOff = (what: string): Verdict =>
  awaitApproval(`recovery is off: run with --auto-recover (or auto_recover = true) to let deadman ${what}`);

export const ACTIONS = {
  TERMINATE_DESCENDANT_PROCESS: {
    does: 'kill one proven-owned, hung descendant subtree; the agent carries on',
    policy: ({ targetUnproven, autoRecover }) => {
      if (targetUnproven)
        return awaitApproval(
          `nothing proves the target is an open tool call's — it may be a helper the agent started (${targetUnproven}): deadman does not kill on a guess, a person must decide`,
        );
      return autoRecover ? allow('auto_recover is on') : recoveryOff('kill hung descendants');
    },
    neverReused: true,
  },
  STALL_POLICY: {
    does: 'nothing deadman can fix in place: apply the stall policy (withhold the watchdog, or exit 75)',
    policy: () => allow('no in-place recovery needs approval'),
  },
  REPORT: {
    does: 'record and report only',
    policy: () => awaitApproval('the diagnosis advises leaving it to a person'),
  },
  END_FINISHED_RUN: {
    does: "the agent's work is over: stop its tree and exit with its result's verdict",
    policy: () => allow('the agent already finished: ending the run needs no approval'),
    ends: {
      doing: "stopping the finished agent's tree",
      done: "the finished agent's tree is stopped; the run ends with its result's verdict",
    },
  },
  WAIT_FOR_USAGE_RESET: {
    does: "stop the agent (SIGINT) if it still runs, wait for the limit's reset feeding the watchdog, then resume the session",
    policy: () => allow('the agent cannot work until the reset: waiting needs no approval'),
    ends: {
      doing: 'interrupting the agent to wait for the reset',
      done: 'the agent is stopped; the run waits for the reset, then resumes the session',
    },
  },
  STOP_FOR_CREDIT: {
    does: 'stop the agent (its credit or spend limit is spent: no reset to wait for), settle its session so nothing revives it, exit 69',
    policy: () => allow('the agent cannot work until a person adds credit: stopping it needs no approval'),
    ends: {
      doing: 'stopping the agent: its credit is spent',
      done: 'the agent is stopped; deadman exits 69 and does not revive the session: a person must add credit',
    },
  },
  CANCEL_AND_RESUME: {
    does: 'interrupt the agent (SIGINT, grace, the kill path) and resume its session with grounded guidance',
    policy: ({ sessionId, autoRecover }) => {
      if (!sessionId)
        return awaitApproval('the agent reported no session id, so it cannot be resumed: a person must decide');
      return autoRecover
        ? allow('auto_recover is on and the session can be resumed')
        : recoveryOff('interrupt and resume the agent');
    },
    neverReused: true,
    ends: {
      doing: 'interrupting the agent to resume it with guidance',
      done: 'the agent is interrupted; its session resumes with the guidance',
      judgedByNextPass: true,
    },
  },
  OBSERVE: {
    does: 'record it for a person; the run goes on untouched',
    policy: () => awaitApproval('recorded for a person to look at; the run goes on'),
  },
  HALT_AND_ESCALATE: {
    does: 'stop the tree, record, exit 69: a person must look before it runs again',
    policy: () => allow('halting only stops: it needs no approval'),
    ends: {
      doing: 'stopping the tree: a person must look before it runs again',
      done: 'the tree is stopped; deadman exits 69 (do not restart)',
      halts: true,
    },
  },
  CHECKPOINT_AND_RESPAWN: {
    does: 'write a handoff file, stop the agent, and start a fresh session with the task and the handoff',
    policy: ({ autoRecover }) =>
      autoRecover ? allow('auto_recover is on') : recoveryOff('respawn the agent with a handoff'),
    neverReused: true,
    ends: {
      doing: 'interrupting the agent to respawn it with a handoff',
      done: 'the agent is stopped; a fresh session starts with the task and the handoff',
      judgedByNextPass: true,
    },
  },
} satisfies Record<string, ActionRow>;

export type RecoveryAction = keyof typeof ACTIONS;

export function actionRow(action: RecoveryAction): ActionRow {
  return ACTIONS[action];
}
