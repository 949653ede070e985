import type { IncidentEvent, IncidentState } from '../core/incident/incident.ts';
import type { PolicyDecision, SignalKind } from '../core/incident/policy.ts';
import { RunRecords, type Incident, type SignalEvidence } from './records.ts';

/**
 * The records of a replayed run: nothing is written anywhere; each signal, decision, action,
 * verification and incident transition becomes one step of the replay's story, stamped with
 * the simulated time. Incidents are numbered in the order they opened.
 */

export type ReplayStep = { at: number; incident: number; kind: SignalKind } & (
  | { step: 'signal'; message: string }
  | { step: 'decision'; verdict: PolicyDecision['verdict']; reason: string }
  | { step: 'action'; action: string; result: string; killed: number[] }
  | { step: 'verification'; verdict: string; detail: string }
  | { step: 'transition'; to: IncidentState; reason: string }
);

export class ReplayRecords extends RunRecords {
  readonly steps: ReplayStep[] = [];
  private readonly numbers = new Map<Incident, number>();
  private readonly now: () => number;

  constructor(now: () => number) {
    super(null, now);
    this.now = now;
  }

  override openIncident(kind: SignalKind, message: string, evidence: SignalEvidence): Incident {
    const incident = super.openIncident(kind, message, evidence);
    this.numbers.set(incident, this.numbers.size + 1);
    this.add(incident, { step: 'signal', message });
    return incident;
  }

  override decision(incident: Incident, decision: PolicyDecision): void {
    this.add(incident, { step: 'decision', verdict: decision.verdict, reason: decision.reason });
  }

  override action(incident: Incident, kind: string, _target: object | null, result: string, detail: object): void {
    const killed = 'killed' in detail && Array.isArray(detail.killed) ? (detail.killed as number[]) : [];
    this.add(incident, { step: 'action', action: kind, result, killed });
  }

  override verification(incident: Incident, verdict: string, detail: string): void {
    this.add(incident, { step: 'verification', verdict, detail });
  }

  override move(incident: Incident, event: IncidentEvent, reason: string, evidence?: object): boolean {
    const applied = super.move(incident, event, reason, evidence);
    if (applied) this.add(incident, { step: 'transition', to: incident.state, reason });
    return applied;
  }

  private add(incident: Incident, step: DistributiveOmit<ReplayStep, 'at' | 'incident' | 'kind'>): void {
    this.steps.push({ at: this.now(), incident: this.numbers.get(incident) ?? 0, kind: incident.kind, ...step } as ReplayStep);
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
