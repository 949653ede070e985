import type { IncidentEvent, IncidentState } from '../../core/incident/incident.ts';
import type { PolicyDecision } from '../../core/incident/policy-decision.ts';
import type { SignalKind } from '../../core/incident/kinds.ts';
import type { StoreSink } from '../../io/store/recording-store.ts';
import { RunRecords, type Incident, type SignalEvidence } from './records.ts';

/**
 * Run records that also keep each signal, decision, action, verification and incident
 * transition as one step of the run's story, stamped with the loop's clock: a replay (which
 * writes nothing) prints them, `deadman attach` sums them up. Incidents are numbered in the
 * order they opened.
 */

export type RecordedStep = { at: number; incident: number; kind: SignalKind } & (
  | { step: 'signal'; message: string }
  | { step: 'decision'; verdict: PolicyDecision['verdict']; reason: string }
  | { step: 'action'; action: string; result: string; killed: number[] }
  | { step: 'verification'; verdict: string; detail: string }
  | { step: 'transition'; to: IncidentState; reason: string }
);

export class StepRecords extends RunRecords {
  readonly steps: RecordedStep[];
  private readonly numbers: Map<Incident, number>;
  private readonly now: () => number;

  /**
   * `now`: the loop's monotonic clock, for the steps; `wall`: the records' clock. `story`: the
   * records of the run's pass before, whose story this pass goes on with (a run row of its own,
   * as `deadman run` writes one per pass).
   */
  constructor(sink: StoreSink | null, wall: () => number, now: () => number, story?: StepRecords) {
    super(sink, wall);
    this.now = now;
    this.steps = story?.steps ?? [];
    this.numbers = story?.numbers ?? new Map();
  }

  override openIncident(kind: SignalKind, message: string, evidence: SignalEvidence): Incident {
    const incident = super.openIncident(kind, message, evidence);
    this.numbers.set(incident, this.numbers.size + 1);
    this.add(incident, { step: 'signal', message });
    return incident;
  }

  override decision(incident: Incident, decision: PolicyDecision): void {
    super.decision(incident, decision);
    this.add(incident, { step: 'decision', verdict: decision.verdict, reason: decision.reason });
  }

  override action(incident: Incident, kind: string, target: object | null, result: string, detail: object): void {
    super.action(incident, kind, target, result, detail);
    const killed = 'killed' in detail && Array.isArray(detail.killed) ? (detail.killed as number[]) : [];
    this.add(incident, { step: 'action', action: kind, result, killed });
  }

  override verification(incident: Incident, verdict: string, detail: string): void {
    super.verification(incident, verdict, detail);
    this.add(incident, { step: 'verification', verdict, detail });
  }

  override move(incident: Incident, event: IncidentEvent, reason: string, evidence?: object): boolean {
    const applied = super.move(incident, event, reason, evidence);
    if (applied) this.add(incident, { step: 'transition', to: incident.state, reason });
    return applied;
  }

  private add(incident: Incident, step: DistributiveOmit<RecordedStep, 'at' | 'incident' | 'kind'>): void {
    this.steps.push({
      at: this.now(),
      incident: this.numbers.get(incident) ?? 0,
      kind: incident.kind,
      ...step,
    } as RecordedStep);
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
