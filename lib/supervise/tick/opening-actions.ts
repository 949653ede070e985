import type { RecoveryAction, SignalKind } from '../../core/incident/kinds.ts';
import { answerCommands } from '../../core/incident/approval-answer.ts';
import type { Incident } from '../records/records.ts';
import type { SupervisorPorts } from '../ports.ts';
import type { Signal } from './detectors.ts';
import { withGuidance } from './diagnose-incident.ts';
import { takeEndingAction } from './ending-actions.ts';
import type { OpeningAction } from './incident-opening.ts';
import type { RecoveryCase } from './recovery.ts';
import type { Opening, OpenCase } from './supervisor-parts.ts';

/**
 * The opening actions of OPENING_TABLE (incident-opening.ts), apart from the supervisor so it
 * keeps only the tick's steps; they act through what it hands over (CaseActor), and the stall
 * and the act on a finding stay its own.
 */

/** What the actions of both incident tables (this file, follow-up-actions.ts) need of the supervisor. */
export interface CaseActor {
  readonly ports: SupervisorPorts;
  /** The open cases by fingerprint. */
  readonly cases: Map<string, OpenCase>;
  /** Acts on the case's finding (stops the hung subtree); a refused kill stalls the run. */
  act(open: RecoveryCase): Promise<void>;
  enterStall(kind: SignalKind, message: string, incident: Incident, guidance?: string): void;
}

export function openingActions(actor: CaseActor): Record<OpeningAction, (opening: Opening) => Promise<void> | void> {
  const { ports } = actor;
  return {
    end_run: ({ signal, open, diagnosis }) =>
      endRun(actor, diagnosis.action, withGuidance(signal, diagnosis), open.incident),
    // The agent goes on; the incident waits for a person (a repeated failure or no progress is no stall), or is escalated to one (a denied action).
    wait_for_person: (opening) => leaveToPerson(ports, opening, 'approval_required'),
    escalate: (opening) => leaveToPerson(ports, opening, 'escalate'),
    stall: ({ signal, open: { incident }, diagnosis }) => {
      ports.records.move(incident, 'escalate', diagnosis.rationale);
      actor.enterStall(signal.kind, signal.message, incident);
    },
    await_approval: ({ signal, open, decision }) => {
      const { incident } = holdFinding(ports, signal, open);
      ports.records.move(incident, 'approval_required', decision.reason);
      const answer = ports.approvals?.commands(incident.id) ?? answerCommands(incident.id, []);
      ports.logger.log(
        'warn',
        `incident ${incident.id} AWAITING_APPROVAL: ${decision.reason}; or answer now: ${answer.approve} (kill it) or ${answer.deny}`,
      );
    },
    recover: ({ signal, open, decision }) => {
      ports.records.move(holdFinding(ports, signal, open).incident, 'recovery_allowed', decision.reason);
      return actor.act(open as RecoveryCase);
    },
  };
}

function leaveToPerson(
  ports: SupervisorPorts,
  { signal, open: { incident }, decision }: Opening,
  event: 'approval_required' | 'escalate',
): void {
  ports.records.move(incident, event, decision.reason);
  ports.logger.log(
    'warn',
    `${signal.kind}: ${signal.message}; incident ${incident.id} ${incident.state}: ${decision.reason}`,
  );
}

/** The case keeps the signal's finding for its recovery, now or once a person approves. */
function holdFinding(ports: SupervisorPorts, signal: Signal, open: OpenCase): OpenCase {
  open.finding = signal.finding!;
  open.actedAt = null;
  ports.logger.log('warn', `${signal.kind}: ${signal.message}`);
  return open;
}

/** The tree is stopped as for a stall, but the run concludes as the agent said (its verdict, a wait for the reset, a resume). */
function endRun(actor: CaseActor, action: RecoveryAction, signal: Signal, incident: Incident): void {
  const open = actor.cases.get(signal.fingerprint);
  if (open) open.endsRun = action;
  const kind = takeEndingAction(actor.ports.records, action, incident, {
    message: signal.message,
    guidance: signal.guidance,
  });
  actor.enterStall(kind, signal.message, incident, signal.guidance);
}
