import type { HungFinding } from '../../core/detect/hung.ts';
import type { ApprovalAnswer } from '../../core/incident/approval-answer.ts';
import type { DetectorInput } from './detectors.ts';
import {
  FOLLOW_UP_TABLE,
  FOLLOWED_AT_ONCE,
  JUDGED_BY,
  standingOf,
  type CaseSeen,
  type FollowUpAction,
  type FollowUpStanding,
} from './incident-follow-up.ts';
import type { CaseActor } from './opening-actions.ts';
import { isRecovery, verifyCase, type RecoveryCase, type VerifyContext } from './recovery.ts';
import type { OpenCase } from './supervisor-parts.ts';

/**
 * An open case followed up at each tick by FOLLOW_UP_TABLE (incident-follow-up.ts): what the
 * tick saw of it and the table's actions, apart from the supervisor so it keeps only the tick's
 * steps; they act through what it hands over (FollowUpActor).
 */

/** What following up a case needs of the supervisor besides CaseActor: its case's detector asked again, a recovery judged. */
export interface FollowUpActor extends CaseActor {
  detectorInput(now: number): DetectorInput;
  /** What a recovery is judged by at this tick, the root still running. */
  verifyContext(now: number): VerifyContext;
}

type RecoveringCase = OpenCase & RecoveryCase;

/** The function the supervisor calls for each open case at each tick. */
export function caseFollowUp(
  actor: FollowUpActor,
): (fingerprint: string, open: OpenCase, now: number) => Promise<void> {
  const actions = followUpActions(actor);
  return async (fingerprint, open, now) => {
    if (!isRecovery(open)) return;
    for (let standing = standingOf(open); ;) {
      const seen = observeCase(actor, standing, fingerprint, open, now);
      const action = FOLLOW_UP_TABLE[standing]?.[seen.event];
      if (!action) return;
      await actions[action]({ ...seen, fingerprint, open, now });
      const next = standingOf(open);
      if (next === standing || !FOLLOWED_AT_ONCE.includes(next) || !actor.cases.has(fingerprint)) return;
      standing = next;
    }
  };
}

/** What this tick saw of the case, as its standing is judged (JUDGED_BY): the signal again, a person's answer, or only the tick. */
function observeCase(
  actor: FollowUpActor,
  standing: FollowUpStanding,
  fingerprint: string,
  open: RecoveringCase,
  now: number,
): CaseSeen {
  const judged = JUDGED_BY[standing];
  if (judged === 'tick') return { event: 'tick', fresh: null, answer: null };
  const answer = judged === 'answer and signal' ? (actor.ports.approvals?.take(open.incident.id) ?? null) : null;
  const signal = open.detector.detect(actor.detectorInput(now));
  const fresh = signal?.fingerprint === fingerprint ? signal : null;
  const found = standing === 'RECOVERING' ? fresh?.finding : fresh;
  return { event: !found ? 'cleared' : answer ? 'answered' : 'detected', fresh, answer };
}

function followUpActions(
  actor: FollowUpActor,
): Record<
  FollowUpAction,
  (seen: CaseSeen & { fingerprint: string; open: RecoveringCase; now: number }) => Promise<void> | void
> {
  const { ports } = actor;
  return {
    forget: ({ fingerprint }) => void actor.cases.delete(fingerprint),
    clear: ({ open }) =>
      void ports.records.move(open.incident, 'condition_cleared', 'the hung subtree is gone or the work moved again'),
    apply_answer: ({ open, answer, fresh }) => applyAnswer(actor, open, answer!, fresh?.finding ?? open.finding),
    verify: ({ open, now }) => void verifyCase(open, actor.verifyContext(now), ports),
    retry: ({ open, fresh }) => {
      open.finding = fresh!.finding!;
      return actor.act(open);
    },
    escalate: ({ open }) =>
      void ports.records.move(open.incident, 'escalate', 'no fresh hung finding for a second attempt'),
    stall: ({ open: { incident } }) => actor.enterStall(incident.kind, incident.message, incident),
  };
}

/** A person's answer from `deadman approve`/`deny`, recorded with who and when. */
async function applyAnswer(
  actor: CaseActor,
  open: RecoveringCase,
  answer: ApprovalAnswer,
  finding: HungFinding,
): Promise<void> {
  const { incident } = open;
  const { records, logger } = actor.ports;
  const who = `${answer.by} at ${answer.at}`;
  if (answer.decision === 'deny') {
    records.move(incident, 'denied', `denied by ${who}: the subtree is left alone`);
    logger.log('warn', `incident ${incident.id} denied by ${who}: left alone`);
    open.denied = true;
    return;
  }
  records.move(incident, 'approved', `approved by ${who}`);
  logger.log('warn', `incident ${incident.id} approved by ${who}: stopping the hung subtree`);
  open.finding = finding;
  await actor.act(open);
}
