import { runErrorCode } from '../../core/incident/error-codes.ts';
import type { Store } from '../../io/store/store.ts';
import type { StoreSink } from '../../io/store/recording-store.ts';
import type { ProcessInfo } from '../../core/process/process-info.ts';
import { transition, type IncidentEvent } from '../../core/incident/incident.ts';
import { stallFingerprint } from '../../core/incident/fingerprint.ts';
import type { SignalKind } from '../../core/incident/kinds.ts';
import type { PolicyDecision } from '../../core/incident/policy-decision.ts';
import { refusedMarkerRow } from '../../io/revive/refused-record.ts';
import { abandonIncidents, closeLostRun, openRuns, supersedeEscalated, type OpenRunRow } from '../../io/store/run-ends.ts';
import { completedCleanly } from '../../core/status/run-status-rows.ts';
import { detached } from '../../core/adapters/lines.ts';
import type { IncidentTransition } from '../../core/alerts/alert-planner.ts';
import { carryIncident, insertIncident, recurIncident } from './incident-rows.ts';
import type { RunRecorder } from '../ports.ts';
import { EventBatch, EVENT_BATCH_DEFAULTS, RAW_EVENT_CHARS, recordedRaw, type EventBatchOptions } from './event-batch.ts';
import { CUT_CONTEXT } from '../../core/redact/line-stream.ts';

/**
 * What one run leaves in the database: its row, its events, and its incidents with every
 * transition. Writes go through a StoreSink, which is best-effort: a database that cannot be
 * written (read-only, full, locked, damaged) never takes the supervised work down with it.
 * The child's events go in batches (event-batch.ts), flushed before the run's end is written.
 * When it can be written again, the run's row is written first, so later rows have a run.
 */

export type { Incident, RunRow, SignalEvidence } from '../record-types.ts';
import type { Incident, RunRow, SignalEvidence } from '../record-types.ts';

export class RunRecords implements RunRecorder {
  private runId: number | null = null;
  private generation = 0; // the sink's database that holds runId
  private run: { row: RunRow; startedAt: number; changes: Record<string, string> } | null = null;
  /** Refused markers found before the run's row exists: each becomes an incident of that run. */
  private readonly refusedMarkers: string[] = [];
  private readonly events: EventBatch;
  /** Where each recorded incident's row is: the sink's generation it was written in, and what carrying it needs. */
  private readonly placed = new WeakMap<Incident, { generation: number; fingerprint: string; at: number }>();

  /** `onMoved` is told every transition that applied (the run's alerts, PassPorts.alerts) and must return at once. */
  constructor(private readonly sink: StoreSink | null, private readonly wall: () => number, batching: EventBatchOptions = EVENT_BATCH_DEFAULTS,
    private readonly onMoved: ((transition: IncidentTransition) => void) | null = null) {
    this.events = new EventBatch((rows, runChanges) => this.withRun('events', (s, id) => {
      if (runChanges) s.update('runs', id, runChanges);
      if (rows.length > 0) s.recordEvents(id, rows.map((row) => recordedRaw(s, row)));
    }), batching);
  }

  get id(): number | null {
    return this.runId;
  }

  private safely<T>(what: string, write: (store: Store) => T): T | null {
    return this.sink?.write(what, write) ?? null;
  }

  /** What the run's edges look up in earlier runs' records: best-effort like every write, null when the store cannot answer. */
  read<T>(what: string, query: (store: Store) => T): T | null {
    return this.safely(what, query);
  }

  /** Writes needing the run's row: written now if it could not be at the start (store unavailable then), or if the database is a fresh one. */
  private withRun(what: string, write: (store: Store, runId: number) => void): void {
    const run = this.run;
    if (run) this.safely(this.runId === null ? 'the run' : what, (s) => {
      if (this.runId === null || this.generation !== this.sink!.generation) {
        this.generation = this.sink!.generation;
        const { row, startedAt, changes } = run;
        this.runId = s.insert('runs', { name: row.name, argv: row.argv, cwd: row.cwd, unit: row.unit, invocation_id: row.invocationId,
          pid: row.pid, pid_start_time: row.pidStartTime, token: row.token, adapter: row.adapter, revive_of: row.reviveOf, started_at: startedAt, metrics_textfile: row.metricsTextfile ?? null, ...changes });
      }
      write(s, this.runId);
    });
  }

  startRun(row: RunRow): void {
    this.run = { row, startedAt: this.wall(), changes: {} };
    this.withRun('the run', () => {});
    for (const problem of this.refusedMarkers.splice(0)) {
      this.escalatedIncident('REVIVE_REFUSED', problem, 'nothing from the marker was run: a person must find out who wrote or changed it');
    }
  }

  /** An incident for a person from the start: nothing deadman can do about it would help. */
  private escalatedIncident(kind: SignalKind, message: string, why: string): void {
    const incident = this.openIncident(kind, message, { processes: [], lastLines: [] });
    this.move(incident, 'escalate', why);
  }

  /**
   * Rows of earlier runs of this name that never got an end: their deadman died without
   * recording one (watchdog SIGABRT after a withheld ping, SIGKILL, power loss). Closed now,
   * keeping the outcome recorded at the stall when there was one; their incidents ABANDONED.
   */
  closeOrphans(name: string, ownerAlive: (run: OpenRunRow) => boolean): void {
    this.safely('earlier runs', (s) => {
      for (const row of openRuns(s, name)) if (!ownerAlive(row)) closeLostRun(s, row, this.wall());
    });
  }

  /**
   * A run that was refused before it started (revive budget spent, another live supervisor):
   * its row, and for a spent budget the HALT_AND_ESCALATE incident a person must look at.
   */
  refusedRun(row: RunRow, refusal: { exitCode: number | null; outcome: string; reason: string; halt: boolean }): void {
    this.startRun(row);
    if (refusal.halt) this.escalatedIncident('HALT_AND_ESCALATE', refusal.reason, 'a person must look before the session is prompted again');
    this.finishRun({ exitCode: refusal.exitCode, signal: null, outcome: refusal.outcome, reason: refusal.reason });
  }

  update(changes: { session_id?: string; adapter?: string; outcome?: string; reason?: string; error_code?: string | null }): void {
    if (this.run) Object.assign(this.run.changes, changes);
    this.withRun('the run', (s, id) => s.update('runs', id, changes));
  }

  /** As update(), written with the next batch of events: for what the output path learns (a session id, per turn). */
  updateSoon(changes: { session_id?: string; adapter?: string }): void {
    if (this.run) Object.assign(this.run.changes, changes);
    this.events.changeRun(changes);
  }

  /** `errorCode`, when the outcome alone does not tell it (a stall's kind, a throttle): error-codes.ts. */
  finishRun(result: { exitCode: number | null; signal: string | null; outcome: string; reason: string; errorCode?: string | null | undefined }): void {
    this.events.flush();
    this.withRun('the run', (s, id) => s.transaction(() => {
      s.update('runs', id, {
        ended_at: this.wall(), exit_code: result.exitCode, signal: result.signal, outcome: result.outcome, reason: result.reason,
        error_code: result.errorCode !== undefined ? result.errorCode : runErrorCode({ outcome: result.outcome }),
      });
      abandonIncidents(s, id, this.wall(), `the run ended (${result.outcome}) before this incident was settled`);
      if (completedCleanly({ outcome: result.outcome, exit_code: result.exitCode })) supersedeEscalated(s, id, this.wall());
    }));
  }

  /**
   * Queued, not written: the caller is the output path, which must never wait on the store.
   * `raw` is copied (detached) only if it is queued, and only its start (recordedRaw).
   */
  event(stream: string, kind: string, raw: string, truncated: boolean, data: object | null): void {
    this.events.add(() => ({ at: this.wall(), stream, kind, raw: detached(raw.slice(0, RAW_EVENT_CHARS + CUT_CONTEXT)), truncated: truncated || raw.length > RAW_EVENT_CHARS, data: data ?? undefined }));
  }

  /** Output that could not be delivered: written at once, after the events queued before it. */
  undelivered(stream: string, problem: string): void {
    this.events.flush();
    this.withRun('events', (s, id) => s.recordEvents(id, [{ at: this.wall(), stream, kind: 'undelivered', raw: problem, truncated: false }]));
  }

  observation(processes: ProcessInfo[]): void {
    this.withRun('observations', (s, id) => s.recordObservation(id, this.wall(), processes));
  }

  /** A session resumed: inline by `deadman run`, or detached by `deadman revive` (with what the launch came to). */
  revive(row: { name: string; sessionId: string; attempt: number; budget: number; argv: string[]; source: string; outcome: string }): void {
    this.safely('the revive', (s) => s.insert('revives', {
      name: row.name, session_id: row.sessionId, at: this.wall(), attempt: row.attempt, budget: row.budget, source: row.source, argv: row.argv, outcome: row.outcome,
    }));
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
    this.withIncident(incident, 'an incident transition', (s, id) => s.transaction(() => {
      s.insert('incident_transitions', { incident_id: id, at, from_state: from, to_state: next, reason, evidence });
      s.update('incidents', id, { state: next, updated_at: at });
    }));
    incident.state = next;
    this.onMoved?.({ incident: { id: incident.id, kind: incident.kind, state: next, message: incident.message }, from, event, reason });
    return true;
  }

  /** `external-refused`: the diagnostician failed or its answer did not hold up; `rationale` says why, `detail` keeps the answer. */
  diagnosis(incident: Incident, diagnosis: { action: string; rationale: string }, source: 'rules' | 'external' | 'external-refused', detail?: object): void {
    this.withIncident(incident, 'a diagnosis', (s, id) => s.insert('diagnoses', { incident_id: id, at: this.wall(), source, action: diagnosis.action, rationale: diagnosis.rationale, detail }));
  }

  decision(incident: Incident, decision: PolicyDecision): void {
    this.withIncident(incident, 'a decision', (s, id) => s.insert('decisions', { incident_id: id, at: this.wall(), action: decision.action, verdict: decision.verdict, reason: decision.reason }));
  }

  action(incident: Incident, kind: string, target: object | null, result: string, detail: object): void {
    this.withIncident(incident, 'an action', (s, id) => s.insert('actions', { incident_id: id, at: this.wall(), kind, target, result, detail }));
  }

  verification(incident: Incident, verdict: string, detail: string): void {
    this.withIncident(incident, 'a verification', (s, id) => s.insert('verifications', { incident_id: id, at: this.wall(), verdict, detail }));
  }

  evidence(claim: string, verdict: string, reason: string): void {
    this.safely('an evidence result', (s) => s.insert('evidence_results', { run_id: this.runId, claim, at: this.wall(), verdict, reason }));
  }
}
