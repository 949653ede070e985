import type { Observation } from '../core/process/events.ts';
import type { HungFinding } from '../core/detect/hung.ts';
import { processKey } from '../core/process/events.ts';
import { emptyActivity, updateActivity, type ActivityFloors } from '../core/detect/tree-activity.ts';
import { detectInactivity } from '../core/detect/inactivity.ts';
import { decide, diagnose, type SignalKind } from '../core/incident/policy.ts';
import { verifyRecovery } from '../core/incident/verify.ts';
import { formatDuration } from '../core/config/duration.ts';
import type { Logger } from '../io/log.ts';
import type { OutputTracker } from './output.ts';
import type { Incident, RunRecords } from './records.ts';
import { diagnoseIncident, type Consult } from './diagnose-incident.ts';
import type { IncidentState } from '../core/incident/incident.ts';

/**
 * One supervision tick: observe → detect → diagnose → policy → act → verify → record.
 * The loop owns no OS code: the tree, the killer and the clock come in as ports, so the same
 * logic runs under systemd, under launchd and in tests.
 */

export interface HungQuery {
  now: number;
  lastOutputAt: number;
  openTools: Array<{ toolId: string; startedAt: number }>;
  /** When the first tool call began (helpers are the processes seen well before it); null before. */
  firstToolAt: number | null;
  /** When an output line last matched `ready_pattern`: the processes alive then are persistent. */
  readyAt: number | null;
}

export type { HungFinding };

export interface TerminateResult {
  killed: number[];
  survived: number[];
  refused: string | null;
}

export interface SupervisorPorts {
  monotonic(): number;
  observe(): Observation;
  findHung(observation: Observation, query: HungQuery): HungFinding | null;
  terminate(finding: HungFinding): Promise<TerminateResult>;
  records: RunRecords;
  logger: Logger;
  /** The external diagnostician, when one is configured. */
  consult?: Consult | undefined;
}

export interface SupervisorSettings {
  autoRecover: boolean;
  inactivityMs: number;
  timeoutMs: number;
  verifyWindowMs: number;
  /** When the owned tree counts as working (CPU and I/O floors per window). */
  activity: ActivityFloors;
}

export type StallKind = Extract<SignalKind, 'OUTPUT_INACTIVITY' | 'HUNG_PROCESS' | 'EVIDENCE_STALE' | 'TIMEOUT' | 'NOT_READY'>;

export interface Stall {
  kind: StallKind;
  message: string;
  incident: Incident;
}

interface HungCase {
  incident: Incident;
  finding: HungFinding;
  actedAt: number | null;
}

export class Supervisor {
  private readonly ports: SupervisorPorts;
  private readonly settings: SupervisorSettings;
  private readonly output: OutputTracker;
  private readonly startedAt: number;
  private readonly onStall: (stall: Stall) => void;
  private previous: Observation | null = null;
  private activity = emptyActivity;
  private hung: HungCase | null = null;
  lastTreeActivityAt: number;
  processCount = 1;
  stall: Stall | null = null;

  constructor(ports: SupervisorPorts, settings: SupervisorSettings, output: OutputTracker, startedAt: number, onStall: (stall: Stall) => void) {
    this.ports = ports;
    this.settings = settings;
    this.output = output;
    this.startedAt = startedAt;
    this.lastTreeActivityAt = startedAt;
    this.onStall = onStall;
  }

  get awaitingApproval(): string | null {
    return this.hung?.incident.state === 'AWAITING_APPROVAL' ? describe(this.hung.finding) : null;
  }

  get recovering(): string | null {
    const state = this.hung?.incident.state;
    return state === 'RECOVERING' || state === 'VERIFYING' ? describe(this.hung!.finding) : null;
  }

  async tick(): Promise<void> {
    const now = this.ports.monotonic();
    const observation = this.ports.observe();
    this.processCount = observation.processes.length;
    this.activity = updateActivity(this.activity, observation, this.output.state.pipeBytes, this.settings.activity);
    if (this.activity.working) this.lastTreeActivityAt = now;
    if (!this.previous || keysOf(this.previous).join() !== keysOf(observation).join()) this.ports.records.observation(observation.processes);
    this.previous = observation;
    if (this.stall) return;
    await this.checkHung(observation, now);
    this.checkInactivity(now);
    this.checkTimeout(now);
  }

  private query(now: number): HungQuery {
    const openTools = [...this.output.state.openTools].map(([toolId, startedAt]) => ({ toolId, startedAt }));
    const { lastOutputAt, firstToolAt, readyAt } = this.output.state;
    return { now, lastOutputAt, openTools, firstToolAt, readyAt };
  }

  private async checkHung(observation: Observation, now: number): Promise<void> {
    const current = this.hung;
    if (!current) {
      const finding = this.ports.findHung(observation, this.query(now));
      if (finding) await this.openHung(finding);
      return;
    }
    const { incident } = current;
    if (incident.state === 'AWAITING_APPROVAL') {
      if (!this.ports.findHung(observation, this.query(now))) {
        this.ports.records.move(incident, 'condition_cleared', 'the hung subtree is gone or the work moved again');
        this.hung = null;
      }
      return;
    }
    if (incident.state !== 'VERIFYING' || current.actedAt === null) return;
    const targetGone = !observation.processes.some((p) => processKey(p) === processKey(current.finding.target));
    const after = this.verify(current, now, targetGone, null);
    if (after === 'RECOVERING') {
      const fresh = this.ports.findHung(observation, this.query(now));
      if (fresh) {
        current.finding = fresh;
        await this.act(current);
      } else {
        this.ports.records.move(incident, 'escalate', 'no fresh hung finding for a second attempt');
      }
    }
    if (this.hung?.incident.state === 'ESCALATED') this.enterStall('HUNG_PROCESS', incident.message, incident);
  }

  /** Called when the root exits while a recovery is being verified. */
  rootExited(code: number | null): void {
    const current = this.hung;
    if (current?.incident.state !== 'VERIFYING') return;
    this.verify(current, this.ports.monotonic(), true, { code, completed: this.output.state.completed });
  }

  /** Judges a recovery in progress; returns the incident's state afterwards. */
  private verify(current: HungCase, now: number, targetGone: boolean, rootExit: { code: number | null; completed: boolean } | null): IncidentState {
    const verdict = verifyRecovery({
      actedAt: current.actedAt!, now, windowMs: this.settings.verifyWindowMs, targetGone, lastOutputAt: this.output.state.lastOutputAt, rootExit,
    });
    if (verdict.verdict === 'PENDING') return current.incident.state;
    this.ports.records.verification(current.incident, verdict.verdict, verdict.detail);
    const event = verdict.verdict === 'RESOLVED' ? 'verified' : 'not_verified';
    this.ports.records.move(current.incident, event, verdict.detail);
    this.ports.logger.log(verdict.verdict === 'RESOLVED' ? 'notice' : 'warn', `incident ${current.incident.id} ${current.incident.state}: ${verdict.detail}`);
    if (current.incident.state === 'RESOLVED') this.hung = null;
    return current.incident.state;
  }

  private async openHung(finding: HungFinding): Promise<void> {
    const records = this.ports.records;
    const incident = records.openIncident('HUNG_PROCESS', finding.reason, {
      processes: finding.subtree, lastLines: this.output.lastLines(), target: finding.target,
    });
    const current: HungCase = { incident, finding, actedAt: null };
    this.hung = current;
    const diagnosis = await diagnoseIncident('HUNG_PROCESS', incident, {
      target: finding.target, subtree: finding.subtree, idleMs: finding.idleMs, lastLines: this.output.lastLines(),
    }, { records, logger: this.ports.logger, consult: this.ports.consult });
    const decision = decide({ recommended: diagnosis.action, autoRecover: this.settings.autoRecover });
    records.decision(incident, decision);
    this.ports.logger.log('warn', `HUNG_PROCESS: ${finding.reason}`);
    if (decision.verdict === 'await_approval') {
      records.move(incident, 'approval_required', decision.reason);
      this.ports.logger.log('warn', `incident ${incident.id} AWAITING_APPROVAL: ${decision.reason}`);
      return;
    }
    records.move(incident, 'recovery_allowed', decision.reason);
    await this.act(current);
  }

  private async act(current: HungCase): Promise<void> {
    const { incident, finding } = current;
    incident.attempts += 1;
    // Output from the moment the first signal goes out counts as the work moving again.
    const actedAt = this.ports.monotonic();
    const result = await this.ports.terminate(finding);
    const outcome = result.refused ? 'refused' : result.survived.length ? 'partial' : 'killed';
    this.ports.records.action(incident, 'TERMINATE_DESCENDANT_PROCESS', finding.target, outcome, result);
    if (result.refused) {
      this.ports.records.move(incident, 'action_refused', result.refused);
      this.enterStall('HUNG_PROCESS', `${incident.message}; kill refused: ${result.refused}`, incident);
      return;
    }
    this.ports.logger.log('notice', `TERMINATE_DESCENDANT_PROCESS pid ${finding.target.pid}: killed [${result.killed.join(' ')}]${result.survived.length ? ` survived [${result.survived.join(' ')}]` : ''}`);
    current.actedAt = actedAt;
    this.ports.records.move(incident, 'action_taken', `killed ${result.killed.length} process(es)`, result);
  }

  private checkInactivity(now: number): void {
    const found = detectInactivity({
      now, limitMs: this.settings.inactivityMs, lastOutputAt: this.output.state.lastOutputAt, lastTreeActivityAt: this.lastTreeActivityAt,
    });
    if (found) this.escalateNew('OUTPUT_INACTIVITY', found.message);
  }

  private checkTimeout(now: number): void {
    if (this.settings.timeoutMs > 0 && now - this.startedAt >= this.settings.timeoutMs) {
      this.escalateNew('TIMEOUT', `wall-time limit of ${formatDuration(this.settings.timeoutMs)} reached`);
    }
  }

  /** A whole-run stall found outside the tick (evidence gone stale, server never ready). */
  escalateNew(kind: StallKind, message: string): void {
    if (this.stall) return;
    const records = this.ports.records;
    const incident = records.openIncident(kind, message, { processes: this.previous?.processes ?? [], lastLines: this.output.lastLines() });
    const diagnosis = diagnose(kind);
    records.diagnosis(incident, diagnosis, 'rules');
    records.decision(incident, decide({ recommended: diagnosis.action, autoRecover: this.settings.autoRecover }));
    records.move(incident, 'escalate', diagnosis.rationale);
    this.enterStall(kind, message, incident);
  }

  private enterStall(kind: StallKind, message: string, incident: Incident): void {
    if (this.stall) return;
    this.stall = { kind, message, incident };
    this.ports.logger.log('error', `${kind}: ${message}`);
    this.onStall(this.stall);
  }
}

function keysOf(observation: Observation): string[] {
  return observation.processes.map(processKey).sort();
}

function describe(finding: HungFinding): string {
  const t = finding.target;
  return `hung: ${t.cmdline.join(' ') || t.comm} (pid ${t.pid}) idle ${formatDuration(finding.idleMs)}`;
}
