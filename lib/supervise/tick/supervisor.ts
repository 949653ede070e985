import { hungStatus } from '../../core/detect/hung.ts';
import { decideOnAction } from './action-policy.ts';
import type { SignalKind } from '../../core/incident/kinds.ts';
import type { OpenCase, Stall, SupervisorParts, SupervisorSettings } from './supervisor-parts.ts';
import type { IncidentState } from '../../core/incident/incident.ts';
import type { OutputTracker } from '../output/output.ts';
import type { Incident } from '../records/records.ts';
import type { SupervisorPorts } from '../ports.ts';
import { diagnoseIncident } from './diagnose-incident.ts';
import { verifyEndingAction } from './ending-actions.ts';
import type { SignalEvidenceFacts } from '../../core/incident/evidence-packet.ts';
import {
  runDetectors,
  takeAttempts,
  type DetectorInput,
  type RunDetector,
  type RunFacts,
  type Signal,
} from './detectors.ts';
import { SIGNALS } from '../../core/signals/registry.ts';
import { ObservationHistory } from './observation-history.ts';
import { isRecovery, terminateHung, verifyCase, type RecoveryCase } from './recovery.ts';
import { answerCommands } from '../../core/incident/approval-answer.ts';
import { OPENING_TABLE, openingAsk } from './incident-opening.ts';
import { openingActions } from './opening-actions.ts';
import { caseFollowUp, type FollowUpActor } from './follow-up-actions.ts';

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
  /** The incident tables' actions (opening-actions.ts, follow-up-actions.ts), over what this supervisor hands them. */
  private readonly openings: ReturnType<typeof openingActions>;
  private readonly followUp: ReturnType<typeof caseFollowUp>;
  private get settings(): SupervisorSettings {
    return this.parts.settings();
  }

  constructor(parts: SupervisorParts) {
    ({ ports: this.ports, output: this.output, startedAt: this.startedAt } = parts);
    this.parts = parts;
    this.facts = parts.facts ?? { ready: true, evidenceDead: null };
    this.history = new ObservationHistory(parts.startedAt);
    this.detectors = runDetectors(parts.kinds);
    const actor: FollowUpActor = {
      ports: this.ports,
      cases: this.cases,
      act: (open) => this.act(open),
      enterStall: (kind, message, incident, guidance) => this.enterStall(kind, message, incident, guidance),
      detectorInput: (now) => this.detectorInput(now),
      verifyContext: (now) => ({
        now,
        windowMs: this.settings.verifyWindowMs,
        lastOutputAt: this.output.state.lastOutputAt,
        observation: this.history.latest,
        rootExit: null,
      }),
    };
    this.openings = openingActions(actor);
    this.followUp = caseFollowUp(actor);
  }

  get awaitingApproval(): string | null {
    const waiting = this.describeCase((state) => state === 'AWAITING_APPROVAL');
    return (
      waiting &&
      `${waiting.text} · ${(this.ports.approvals?.commands(waiting.id) ?? answerCommands(waiting.id, [])).approve}`
    );
  }

  get recovering(): string | null {
    return this.describeCase((state) => state === 'RECOVERING' || state === 'VERIFYING')?.text ?? null;
  }

  async tick(): Promise<void> {
    await this.output.fingerprinted(); // first: the tick's time and observation come after this wait (git's, a few ms)
    const now = this.ports.monotonic();
    const observation = this.ports.tree.observe();
    const { pipeBytes, readyAt } = this.output.state;
    if (this.history.add(observation, now, { pipeBytes, floors: this.settings.activity, readyAt }))
      this.ports.records.observation(observation.processes);
    await this.untilStall(this.tickSteps(now));
  }

  /** A tick's steps, in order: the new attempts taken in, each open case followed up, every other detector asked. */
  private *tickSteps(now: number): Iterable<() => Promise<void>> {
    yield async () => {
      const attempts = takeAttempts(this.detectors, this.output);
      await this.ports.resumed?.tick(
        attempts,
        this.output.state.completed,
        [...this.cases.values()].map((open) => open.incident.kind),
      );
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
    const context = {
      now: this.ports.monotonic(),
      windowMs: this.settings.verifyWindowMs,
      lastOutputAt: this.output.state.lastOutputAt,
      observation: null,
    };
    this.ports.resumed?.ended(
      code,
      this.output.state.completed,
      [...this.cases.values()].map((open) => open.incident.kind),
    );
    for (const [fingerprint, open] of this.cases) {
      if (open.endsRun) verifyEndingAction(this.ports.records, open.incident, open.endsRun);
      if (!isRecovery(open)) continue;
      const after = verifyCase(
        open,
        { ...context, rootExit: { code, completed: this.output.state.completed } },
        this.ports,
      );
      if (after === 'RESOLVED') this.cases.delete(fingerprint);
    }
  }

  private detectorInput(now: number): DetectorInput {
    return {
      now,
      startedAt: this.startedAt,
      history: this.history,
      output: this.output.state,
      facts: this.facts,
      settings: this.settings,
    };
  }

  /** Opens the incident of a new signal: diagnose, ask policy, then act or wait for approval. */
  private async open(signal: Signal, detector: RunDetector): Promise<void> {
    const { records, logger } = this.ports;
    const lastLines = this.output.lastLines();
    const incident = records.openIncident(
      signal.kind,
      signal.message,
      signal.finding
        ? { processes: signal.finding.subtree, lastLines, target: signal.finding.target }
        : { processes: this.history.latest?.processes ?? [], lastLines },
    );
    const open: OpenCase = { incident, detector };
    this.cases.set(signal.fingerprint, open);
    const evidence: SignalEvidenceFacts = signal.finding
      ? {
          processes: signal.finding.subtree,
          target: signal.finding.target,
          lastLines,
          thresholds: { hung_timeout_ms: this.settings.hungTimeoutMs, idle_ms: signal.finding.idleMs },
        }
      : { processes: [], target: null, lastLines, thresholds: {} };
    const diagnosis = await diagnoseIncident(signal.kind, incident, evidence, {
      records,
      logger,
      consult: this.ports.consult,
    });
    const decision = decideOnAction(this.ports, this.parts.actionsTaken, incident, signal, {
      action: diagnosis.action,
      autoRecover: this.settings.autoRecover,
      sessionId: this.output.state.sessionId,
    });
    const action = OPENING_TABLE[openingAsk(diagnosis.action, Boolean(signal.finding))][decision.verdict];
    await this.openings[action]({ signal, open, decision, diagnosis });
  }

  /** Acts on a finding; a refused kill stalls the run. */
  private async act(open: RecoveryCase): Promise<void> {
    const refused = await terminateHung(open, this.ports);
    if (refused)
      this.enterStall(open.incident.kind, `${open.incident.message}; kill refused: ${refused}`, open.incident);
  }

  /**
   * The agent may report a usage limit and exit within one poll: its lines are read, so the
   * detectors that read only the output get one last look once the root is gone.
   */
  async detectAtExit(): Promise<void> {
    await this.untilStall(
      this.detectors
        .filter((d) => d.atExit)
        .map((detector) => () => this.detectAndOpen(detector, this.ports.monotonic())),
    );
  }

  private enterStall(kind: SignalKind, message: string, incident: Incident, guidance?: string): void {
    if (this.stall) return;
    this.stall = { kind, message, incident, guidance };
    this.ports.logger.log(SIGNALS[kind].stallLog, `${kind}: ${message}`);
    this.parts.onStall(this.stall);
  }

  private describeCase(matches: (state: IncidentState) => boolean): { text: string; id: number } | null {
    for (const open of this.cases.values())
      if (isRecovery(open) && !open.denied && matches(open.incident.state))
        return { text: hungStatus(open.finding), id: open.incident.id };
    return null;
  }
}
