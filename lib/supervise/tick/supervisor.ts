import { hungStatus, type HungFinding } from '../../core/detect/hung.ts';
import { decideOnAction } from './action-policy.ts';
import type { RecoveryAction, SignalKind } from '../../core/incident/kinds.ts';
import type { Opening, OpenCase, Stall, SupervisorParts, SupervisorSettings } from './supervisor-parts.ts';
import type { IncidentState } from '../../core/incident/incident.ts';
import type { OutputTracker } from '../output/output.ts';
import type { Incident } from '../records/records.ts';
import type { SupervisorPorts } from '../ports.ts';
import { diagnoseIncident, withGuidance } from './diagnose-incident.ts';
import { takeEndingAction, verifyEndingAction } from './ending-actions.ts';
import type { SignalEvidenceFacts } from '../../core/incident/evidence-packet.ts';
import { runDetectors, takeAttempts, type DetectorInput, type RunDetector, type RunFacts, type Signal } from './detectors.ts';
import { SIGNALS } from '../../core/signals/registry.ts';
import { ObservationHistory } from './observation-history.ts';
import { isRecovery, terminateHung, verifyCase, type RecoveryCase } from './recovery.ts';
import { answerCommands, type ApprovalAnswer } from '../../core/incident/approval-answer.ts';
import { OPENING_TABLE, openingAsk, type OpeningAction } from './incident-opening.ts';
import { FOLLOW_UP_TABLE, FOLLOWED_AT_ONCE, JUDGED_BY, standingOf, type CaseSeen, type FollowUpAction, type FollowUpStanding } from './incident-follow-up.ts';

/**
 * One supervision tick: observe → detect → diagnose → policy → act → verify → record.
 * The supervisor owns the run's one observation history; detectors read it and return
 * signals; each signal fingerprint has at most one open incident, driven through the incident
 * transition table, so incidents of different kinds can be open at once.
 */

export type { Stall, SupervisorParts, SupervisorSettings } from './supervisor-parts.ts';

export class Supervisor {
  readonly history: ObservationHistory;
  stall: Stall | null = null;
  readonly facts: RunFacts;
  private readonly ports: SupervisorPorts;
  private readonly output: OutputTracker;
  private readonly startedAt: number;
  private readonly parts: SupervisorParts;
  private readonly detectors: readonly RunDetector[];
  private readonly cases = new Map<string, OpenCase>();
  private get settings(): SupervisorSettings { return this.parts.settings(); }

  constructor(parts: SupervisorParts) {
    ({ ports: this.ports, output: this.output, startedAt: this.startedAt } = parts);
    this.parts = parts;
    this.facts = parts.facts ?? { ready: true, evidenceDead: null };
    this.history = new ObservationHistory(parts.startedAt);
    this.detectors = runDetectors(parts.kinds);
  }

  get awaitingApproval(): string | null {
    const waiting = this.describeCase((state) => state === 'AWAITING_APPROVAL');
    return waiting && `${waiting.text} · ${(this.ports.approvals?.commands(waiting.id) ?? answerCommands(waiting.id, [])).approve}`;
  }

  get recovering(): string | null {
    return this.describeCase((state) => state === 'RECOVERING' || state === 'VERIFYING')?.text ?? null;
  }

  async tick(): Promise<void> {
    await this.output.fingerprinted(); // first: the tick's time and observation come after this wait (git's, a few ms)
    const now = this.ports.monotonic();
    const observation = this.ports.tree.observe();
    const { pipeBytes, readyAt } = this.output.state;
    if (this.history.add(observation, now, { pipeBytes, floors: this.settings.activity, readyAt })) this.ports.records.observation(observation.processes);
    await this.untilStall(this.tickSteps(now));
  }

  /** A tick's steps, in order: the new attempts taken in, each open case followed up, every other detector asked. */
  private *tickSteps(now: number): Iterable<() => Promise<void>> {
    yield async () => {
      const attempts = takeAttempts(this.detectors, this.output);
      await this.ports.resumed?.tick(attempts, this.output.state.completed, [...this.cases.values()].map((open) => open.incident.kind));
    };
    const followedUp = new Set<RunDetector>();
    for (const [fingerprint, open] of this.cases) {
      followedUp.add(open.detector);
      yield () => this.followUp(fingerprint, open, now);
    }
    for (const detector of this.detectors) if (!followedUp.has(detector)) yield () => this.detectAndOpen(detector, now);
  }

  /** Runs the steps in order until one enters a stall: the run is stopping, so nothing more is looked at. */
  private async untilStall(steps: Iterable<() => Promise<void>>): Promise<void> {
    for (const step of steps) {
      if (this.stall) return;
      await step();
    }
  }

  private async detectAndOpen(detector: RunDetector, now: number): Promise<void> {
    const signal = detector.detect(this.detectorInput(now));
    if (signal && !this.cases.has(signal.fingerprint)) await this.open(signal, detector);
  }

  /** Called when the root exits while a recovery is being verified. */
  rootExited(code: number | null): void {
    const context = { now: this.ports.monotonic(), windowMs: this.settings.verifyWindowMs, lastOutputAt: this.output.state.lastOutputAt, observation: null };
    this.ports.resumed?.ended(code, this.output.state.completed, [...this.cases.values()].map((open) => open.incident.kind));
    for (const [fingerprint, open] of this.cases) {
      if (open.endsRun) verifyEndingAction(this.ports.records, open.incident, open.endsRun);
      if (!isRecovery(open)) continue;
      const after = verifyCase(open, { ...context, rootExit: { code, completed: this.output.state.completed } }, this.ports);
      if (after === 'RESOLVED') this.cases.delete(fingerprint);
    }
  }

  private detectorInput(now: number): DetectorInput {
    return { now, startedAt: this.startedAt, history: this.history, output: this.output.state, facts: this.facts, settings: this.settings };
  }

  /** Opens the incident of a new signal: diagnose, ask policy, then act or wait for approval. */
  private async open(signal: Signal, detector: RunDetector): Promise<void> {
    const { records, logger } = this.ports;
    const lastLines = this.output.lastLines();
    const incident = records.openIncident(signal.kind, signal.message, signal.finding
      ? { processes: signal.finding.subtree, lastLines, target: signal.finding.target }
      : { processes: this.history.latest?.processes ?? [], lastLines });
    const open: OpenCase = { incident, detector };
    this.cases.set(signal.fingerprint, open);
    const evidence: SignalEvidenceFacts = signal.finding
      ? { processes: signal.finding.subtree, target: signal.finding.target, lastLines, thresholds: { hung_timeout_ms: this.settings.hungTimeoutMs, idle_ms: signal.finding.idleMs } }
      : { processes: [], target: null, lastLines, thresholds: {} };
    const diagnosis = await diagnoseIncident(signal.kind, incident, evidence, { records, logger, consult: this.ports.consult });
    const decision = decideOnAction(this.ports, this.parts.actionsTaken, incident, signal, { action: diagnosis.action, autoRecover: this.settings.autoRecover, sessionId: this.output.state.sessionId });
    const action = OPENING_TABLE[openingAsk(diagnosis.action, Boolean(signal.finding))][decision.verdict];
    await this.openings[action]({ signal, open, decision, diagnosis });
  }

  /** The opening actions of OPENING_TABLE (incident-opening.ts). */
  private readonly openings: Record<OpeningAction, (opening: Opening) => Promise<void> | void> = {
    end_run: ({ signal, open, diagnosis }) => this.endRun(diagnosis.action, withGuidance(signal, diagnosis), open.incident),
    // The agent goes on; the incident waits for a person (a repeated failure or no progress is no stall), or is escalated to one (a denied action).
    wait_for_person: (opening) => this.leaveToPerson(opening, 'approval_required'),
    escalate: (opening) => this.leaveToPerson(opening, 'escalate'),
    stall: ({ signal, open: { incident }, diagnosis }) => {
      this.ports.records.move(incident, 'escalate', diagnosis.rationale);
      this.enterStall(signal.kind, signal.message, incident);
    },
    await_approval: ({ signal, open, decision }) => {
      const { incident } = this.holdFinding(signal, open);
      this.ports.records.move(incident, 'approval_required', decision.reason);
      const answer = this.ports.approvals?.commands(incident.id) ?? answerCommands(incident.id, []);
      this.ports.logger.log('warn', `incident ${incident.id} AWAITING_APPROVAL: ${decision.reason}; or answer now: ${answer.approve} (kill it) or ${answer.deny}`);
    },
    recover: ({ signal, open, decision }) => {
      this.ports.records.move(this.holdFinding(signal, open).incident, 'recovery_allowed', decision.reason);
      return this.act(open as RecoveryCase);
    },
  };

  private leaveToPerson({ signal, open: { incident }, decision }: Opening, event: 'approval_required' | 'escalate'): void {
    this.ports.records.move(incident, event, decision.reason);
    this.ports.logger.log('warn', `${signal.kind}: ${signal.message}; incident ${incident.id} ${incident.state}: ${decision.reason}`);
  }

  /** The case keeps the signal's finding for its recovery, now or once a person approves. */
  private holdFinding(signal: Signal, open: OpenCase): OpenCase {
    open.finding = signal.finding!;
    open.actedAt = null;
    this.ports.logger.log('warn', `${signal.kind}: ${signal.message}`);
    return open;
  }

  /** One more tick of an open incident with a recovery, by the follow-up table (incident-follow-up.ts). */
  private async followUp(fingerprint: string, open: OpenCase, now: number): Promise<void> {
    if (!isRecovery(open)) return;
    for (let standing = standingOf(open); ;) {
      const seen = this.observeCase(standing, fingerprint, open, now);
      const action = FOLLOW_UP_TABLE[standing]?.[seen.event];
      if (!action) return;
      await this.followUps[action]({ ...seen, fingerprint, open, now });
      const next = standingOf(open);
      if (next === standing || !FOLLOWED_AT_ONCE.includes(next) || !this.cases.has(fingerprint)) return;
      standing = next;
    }
  }

  /** What this tick saw of the case, as its standing is judged (JUDGED_BY): the signal again, a person's answer, or only the tick. */
  private observeCase(standing: FollowUpStanding, fingerprint: string, open: OpenCase & RecoveryCase, now: number): CaseSeen {
    const judged = JUDGED_BY[standing];
    if (judged === 'tick') return { event: 'tick', fresh: null, answer: null };
    const answer = judged === 'answer and signal' ? this.ports.approvals?.take(open.incident.id) ?? null : null;
    const signal = open.detector.detect(this.detectorInput(now));
    const fresh = signal?.fingerprint === fingerprint ? signal : null;
    const found = standing === 'RECOVERING' ? fresh?.finding : fresh;
    return { event: !found ? 'cleared' : answer ? 'answered' : 'detected', fresh, answer };
  }

  private readonly followUps: Record<FollowUpAction, (seen: CaseSeen & { fingerprint: string; open: OpenCase & RecoveryCase; now: number }) => Promise<void> | void> = {
    forget: ({ fingerprint }) => void this.cases.delete(fingerprint),
    clear: ({ open }) => void this.ports.records.move(open.incident, 'condition_cleared', 'the hung subtree is gone or the work moved again'),
    apply_answer: ({ open, answer, fresh }) => this.answer(open, answer!, fresh?.finding ?? open.finding),
    verify: ({ open, now }) => void verifyCase(open, { now, windowMs: this.settings.verifyWindowMs, lastOutputAt: this.output.state.lastOutputAt, observation: this.history.latest, rootExit: null }, this.ports),
    retry: ({ open, fresh }) => {
      open.finding = fresh!.finding!;
      return this.act(open);
    },
    escalate: ({ open }) => void this.ports.records.move(open.incident, 'escalate', 'no fresh hung finding for a second attempt'),
    stall: ({ open: { incident } }) => this.enterStall(incident.kind, incident.message, incident),
  };

  /** A person's answer from `deadman approve`/`deny`, recorded with who and when. */
  private async answer(open: RecoveryCase & OpenCase, answer: ApprovalAnswer, finding: HungFinding): Promise<void> {
    const { incident } = open;
    const who = `${answer.by} at ${answer.at}`;
    if (answer.decision === 'deny') {
      this.ports.records.move(incident, 'denied', `denied by ${who}: the subtree is left alone`);
      this.ports.logger.log('warn', `incident ${incident.id} denied by ${who}: left alone`);
      open.denied = true;
      return;
    }
    this.ports.records.move(incident, 'approved', `approved by ${who}`);
    this.ports.logger.log('warn', `incident ${incident.id} approved by ${who}: stopping the hung subtree`);
    open.finding = finding;
    await this.act(open);
  }

  private async act(open: RecoveryCase): Promise<void> {
    const refused = await terminateHung(open, this.ports);
    if (refused) this.enterStall(open.incident.kind, `${open.incident.message}; kill refused: ${refused}`, open.incident);
  }

  /** The tree is stopped as for a stall, but the run concludes as the agent said (its verdict, a wait for the reset, a resume). */
  private endRun(action: RecoveryAction, signal: Signal, incident: Incident): void {
    const open = this.cases.get(signal.fingerprint);
    if (open) open.endsRun = action;
    const kind = takeEndingAction(this.ports.records, action, incident, { message: signal.message, guidance: signal.guidance });
    this.enterStall(kind, signal.message, incident, signal.guidance);
  }

  /**
   * The agent may report a usage limit and exit within one poll: its lines are read, so the
   * detectors that read only the output get one last look once the root is gone.
   */
  async detectAtExit(): Promise<void> {
    await this.untilStall(this.detectors.filter((d) => d.atExit).map((detector) => () => this.detectAndOpen(detector, this.ports.monotonic())));
  }

  private enterStall(kind: SignalKind, message: string, incident: Incident, guidance?: string): void {
    if (this.stall) return;
    this.stall = { kind, message, incident, guidance };
    this.ports.logger.log(SIGNALS[kind].stallLog, `${kind}: ${message}`);
    this.parts.onStall(this.stall);
  }

  private describeCase(matches: (state: IncidentState) => boolean): { text: string; id: number } | null {
    for (const open of this.cases.values()) if (isRecovery(open) && !open.denied && matches(open.incident.state)) return { text: hungStatus(open.finding), id: open.incident.id };
    return null;
  }
}
