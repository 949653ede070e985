import type { Store } from '../../io/store/store.ts';
import type { StoreSink } from '../../io/store/recording-store.ts';
import { transition, type IncidentEvent } from '../../core/incident/incident.ts';
import { stallFingerprint } from '../../core/incident/fingerprint.ts';
import type { SignalKind } from '../../core/incident/kinds.ts';
import type { PolicyDecision } from '../../core/incident/policy-decision.ts';
import { refusedMarkerRow } from '../../io/revive/refused-record.ts';
import type { IncidentTransition } from '../../core/alerts/alert-planner.ts';
import { carryIncident, insertIncident, recurIncident } from './incident-rows.ts';
import type { RunRecorder } from '../ports.ts';
import { EVENT_BATCH_DEFAULTS, type EventBatchOptions } from './event-batch.ts';
import { RunRowRecords } from './run-row-records.ts';

/**
 * What one run leaves in the database: its row and events (run-row-records.ts), and its
 * incidents with every transition. Writes go through a StoreSink, which is best-effort: a
 * database that cannot be written (read-only, full, locked, damaged) never takes the supervised
 * work down with it.
 * The child's events go in batches (event-batch.ts), flushed before the run's end is written.
 * When it can be written again, the run's row is written first, so later rows have a run.
 */

export type { Incident, RunRow, SignalEvidence } from '../record-types.ts';
import type { Incident, RunRow, SignalEvidence } from '../record-types.ts';

export class RunRecords extends RunRowRecords implements RunRecorder {
  /** Refused markers found before the run's row exists: each becomes an incident of that run. */
  private readonly refusedMarkers: string[] = [];
  /** Where each recorded incident's row is: the sink's generation it was written in, and what carrying it needs. */
  private readonly placed = new WeakMap<Incident, { generation: number; fingerprint: string; at: number }>();

  /** `onMoved` is told every transition that applied (the run's alerts, PassPorts.alerts) and must return at once. */
  constructor(
    sink: StoreSink | null,
    wall: () => number,
    batching: EventBatchOptions = EVENT_BATCH_DEFAULTS,
    private readonly onMoved: ((transition: IncidentTransition) => void) | null = null,
  ) {
    super(sink, wall, batching);
  }

  startRun(row: RunRow): void {
    this.run = { row, startedAt: this.wall(), changes: {} };
    this.withRun('the run', () => {});
    for (const problem of this.refusedMarkers.splice(0)) {
      this.escalatedIncident(
        'REVIVE_REFUSED',
        problem,
        'nothing from the marker was run: a person must find out who wrote or changed it',
      );
    }
  }

  /** An incident for a person from the start: nothing deadman can do about it would help. */
  private escalatedIncident(kind: SignalKind, message: string, why: string): void {
    const incident = this.openIncident(kind, message, { processes: [], lastLines: [] });
    this.move(incident, 'escalate', why);
  }

  /**
   * A run that was refused before it started (revive budget spent, another live supervisor):
   * its row, and for a spent budget the HALT_AND_ESCALATE incident a person must look at.
   */
  refusedRun(row: RunRow, refusal: { exitCode: number | null; outcome: string; reason: string; halt: boolean }): void {
    this.startRun(row);
    if (refusal.halt)
      this.escalatedIncident(
        'HALT_AND_ESCALATE',
        refusal.reason,
        'a person must look before the session is prompted again',
      );
    this.finishRun({ exitCode: refusal.exitCode, signal: null, outcome: refusal.outcome, reason: refusal.reason });
  }

  /**
   * A revive marker that was refused (forged, foreign, untrusted): a `revives` row now, and a
   * REVIVE_REFUSED incident, escalated, of the run that found it (opened with its row). Only
   * the name and the one-line problem (its path, why, where it was moved) are stored.
   */
  refusedMarker(name: string, problem: string): void {
    this.safely('the refused marker', (s) => s.insert('revives', refusedMarkerRow(name, problem, this.wall())));
    this.refusedMarkers.push(problem);
  }

  /**
   * A new incident, or — when an earlier run of this name left one open that stalled the same
   * way (same fingerprint) — a recurrence of that one: counted with its time, and reopened so
   * this run's transitions follow on from it.
   */
  openIncident(kind: SignalKind, message: string, evidence: SignalEvidence): Incident {
    const at = this.wall();
    const fingerprint = stallFingerprint({ kind, message, target: evidence.target });
    const opened = { kind, message, evidence, fingerprint, at };
    let id: number | null = null;
    this.withRun('the incident', (s, runId) => {
      id = s.transaction(() => recurIncident(s, this.run!.row.name, runId, opened) ?? insertIncident(s, runId, opened));
    });
    const incident: Incident = { id: id ?? -1, kind, state: 'OPEN', message, attempts: 0 };
    if (id !== null) this.placed.set(incident, { generation: this.generation, fingerprint, at });
    return incident;
  }

  /**
   * Writes about an incident recorded earlier: in the database that holds its row, or, when
   * that one was replaced under the run, after carrying the incident into the fresh one.
   * An incident never recorded (the store was down when it opened) stays unrecorded.
   */
  private withIncident(incident: Incident, what: string, write: (store: Store, incidentId: number) => void): void {
    if (incident.id < 0) return;
    this.withRun(what, (s) => {
      const placed = this.placed.get(incident);
      if (placed && placed.generation !== this.generation) {
        incident.id = s.transaction(() => carryIncident(s, this.runId!, incident, placed, this.wall()));
        placed.generation = this.generation;
      }
      write(s, incident.id);
    });
  }

  /** Applies one state-machine event; returns false (and records nothing) when it does not apply. */
  move(incident: Incident, event: IncidentEvent, reason: string, evidence?: object): boolean {
    const next = transition(incident.state, event, incident.attempts);
    if (next === null) return false;
    const from = incident.state;
    const at = this.wall();
    this.withIncident(incident, 'an incident transition', (s, id) =>
      s.transaction(() => {
        s.insert('incident_transitions', { incident_id: id, at, from_state: from, to_state: next, reason, evidence });
        s.update('incidents', id, { state: next, updated_at: at });
      }),
    );
    incident.state = next;
    this.onMoved?.({
      incident: { id: incident.id, kind: incident.kind, state: next, message: incident.message },
      from,
      event,
      reason,
    });
    return true;
  }

  /** `external-refused`: the diagnostician failed or its answer did not hold up; `rationale` says why, `detail` keeps the answer. */
  diagnosis(
    incident: Incident,
    diagnosis: { action: string; rationale: string },
    source: 'rules' | 'external' | 'external-refused',
    detail?: object,
  ): void {
    this.withIncident(incident, 'a diagnosis', (s, id) =>
      s.insert('diagnoses', {
        incident_id: id,
        at: this.wall(),
        source,
        action: diagnosis.action,
        rationale: diagnosis.rationale,
        detail,
      }),
    );
  }

  decision(incident: Incident, decision: PolicyDecision): void {
    this.withIncident(incident, 'a decision', (s, id) =>
      s.insert('decisions', {
        incident_id: id,
        at: this.wall(),
        action: decision.action,
        verdict: decision.verdict,
        reason: decision.reason,
      }),
    );
  }

  action(incident: Incident, kind: string, target: object | null, result: string, detail: object): void {
    this.withIncident(incident, 'an action', (s, id) =>
      s.insert('actions', { incident_id: id, at: this.wall(), kind, target, result, detail }),
    );
  }

  verification(incident: Incident, verdict: string, detail: string): void {
    this.withIncident(incident, 'a verification', (s, id) =>
      s.insert('verifications', { incident_id: id, at: this.wall(), verdict, detail }),
    );
  }
}
