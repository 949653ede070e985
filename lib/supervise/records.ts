import type { Store } from '../io/store/store.ts';
import type { Logger } from '../io/log.ts';
import type { ProcessInfo } from '../core/process/events.ts';
import { transition, type IncidentEvent, type IncidentState } from '../core/incident/incident.ts';
import type { Diagnosis, PolicyDecision, SignalKind } from '../core/incident/policy.ts';

/**
 * What one run leaves in the database: its row, its events, and its incidents with every
 * transition. A database that fails mid-run (disk full, locked too long) must not take the
 * supervised work down with it, so each write failure is logged once and the run goes on.
 */

export interface Incident {
  id: number;
  kind: SignalKind;
  state: IncidentState;
  message: string;
  attempts: number;
}

export interface SignalEvidence {
  processes: ProcessInfo[];
  lastLines: string[];
  target?: ProcessInfo;
}

export interface RunRow {
  name: string;
  argv: string[];
  cwd: string;
  unit: string | null;
  invocationId: string | null;
  pid: number;
  adapter: string;
  reviveOf: string | null;
}

export class RunRecords {
  private runId: number | null = null;
  private readonly failed = new Set<string>();
  private readonly store: Store | null;
  private readonly wall: () => number;
  private readonly logger: Logger;

  constructor(store: Store | null, wall: () => number, logger: Logger) {
    this.store = store;
    this.wall = wall;
    this.logger = logger;
  }

  get id(): number | null {
    return this.runId;
  }

  private safely<T>(what: string, write: (store: Store) => T): T | null {
    if (!this.store) return null;
    try {
      return write(this.store);
    } catch (error) {
      if (!this.failed.has(what)) {
        this.failed.add(what);
        this.logger.log('warn', `could not record ${what} in ${this.store.path}: ${(error as Error).message}; the run continues`);
      }
      return null;
    }
  }

  startRun(row: RunRow): void {
    this.runId = this.safely('the run', (s) => s.insert('runs', {
      name: row.name, argv: row.argv, cwd: row.cwd, unit: row.unit, invocation_id: row.invocationId,
      pid: row.pid, adapter: row.adapter, revive_of: row.reviveOf, started_at: this.wall(),
    }));
  }

  /**
   * Rows of earlier runs of this name that never got an end: their deadman died without
   * recording one (watchdog SIGABRT after a withheld ping, SIGKILL, power loss). Closed now,
   * keeping the outcome recorded at the stall when there was one.
   */
  closeOrphans(name: string, ownerAlive: (pid: number) => boolean): void {
    this.safely('earlier runs', (s) => {
      for (const row of s.all<{ id: number; pid: number; outcome: string | null }>('SELECT id, pid, outcome FROM runs WHERE name = ? AND ended_at IS NULL', name)) {
        if (ownerAlive(row.pid)) continue;
        s.update('runs', row.id, {
          ended_at: this.wall(), outcome: row.outcome ?? 'lost',
          signal: row.outcome === 'stalled' ? 'watchdog' : 'unknown',
          reason: row.outcome === 'stalled' ? undefined : 'deadman ended without recording an exit (killed, crashed or the host went down)',
        });
      }
    });
  }

  /**
   * A run that was refused before it started (revive budget spent, another live supervisor):
   * its row, and for a spent budget the HALT_AND_ESCALATE incident a person must look at.
   */
  refusedRun(row: RunRow, refusal: { exitCode: number; outcome: string; reason: string; halt: boolean }): void {
    this.startRun(row);
    if (refusal.halt) {
      const incident = this.openIncident('HALT_AND_ESCALATE', refusal.reason, { processes: [], lastLines: [] });
      this.move(incident, 'escalate', 'a person must look before the session is prompted again');
    }
    this.finishRun({ exitCode: refusal.exitCode, signal: null, outcome: refusal.outcome, reason: refusal.reason });
  }

  update(changes: { session_id?: string; adapter?: string; outcome?: string; reason?: string }): void {
    const id = this.runId;
    if (id !== null) this.safely('the run', (s) => s.update('runs', id, changes));
  }

  finishRun(result: { exitCode: number | null; signal: string | null; outcome: string; reason: string }): void {
    const id = this.runId;
    if (id === null) return;
    this.safely('the run', (s) => s.update('runs', id, {
      ended_at: this.wall(), exit_code: result.exitCode, signal: result.signal, outcome: result.outcome, reason: result.reason,
    }));
  }

  event(stream: string, kind: string, raw: string, truncated: boolean, data: object | null): void {
    const id = this.runId;
    if (id !== null) this.safely('events', (s) => s.recordEvent(id, { at: this.wall(), stream, kind, raw, truncated, data: data ?? undefined }));
  }

  observation(processes: ProcessInfo[]): void {
    const id = this.runId;
    if (id !== null) this.safely('observations', (s) => s.recordObservation(id, this.wall(), processes));
  }

  openIncident(kind: SignalKind, message: string, evidence: SignalEvidence): Incident {
    const at = this.wall();
    const ids = this.safely('the incident', (s) => s.transaction(() => {
      const signalId = s.insert('signals', { run_id: this.runId, at, kind, message, evidence });
      const incidentId = s.insert('incidents', { run_id: this.runId, kind, state: 'OPEN', message, opened_at: at, updated_at: at, signal_id: signalId });
      s.insert('incident_transitions', { incident_id: incidentId, at, from_state: null, to_state: 'OPEN', reason: message, evidence: { signal: signalId } });
      return incidentId;
    }));
    return { id: ids ?? -1, kind, state: 'OPEN', message, attempts: 0 };
  }

  /** Applies one state-machine event; returns false (and records nothing) when it does not apply. */
  move(incident: Incident, event: IncidentEvent, reason: string, evidence?: object): boolean {
    const next = transition(incident.state, event, incident.attempts);
    if (next === null) return false;
    const from = incident.state;
    incident.state = next;
    const at = this.wall();
    if (incident.id >= 0) {
      this.safely('an incident transition', (s) => s.transaction(() => {
        s.insert('incident_transitions', { incident_id: incident.id, at, from_state: from, to_state: next, reason, evidence });
        s.update('incidents', incident.id, { state: next, updated_at: at });
      }));
    }
    return true;
  }

  diagnosis(incident: Incident, diagnosis: Diagnosis, source: 'rules' | 'external'): void {
    this.safely('a diagnosis', (s) => s.insert('diagnoses', { incident_id: incident.id, at: this.wall(), source, action: diagnosis.action, rationale: diagnosis.rationale }));
  }

  decision(incident: Incident, decision: PolicyDecision): void {
    this.safely('a decision', (s) => s.insert('decisions', { incident_id: incident.id, at: this.wall(), action: decision.action, verdict: decision.verdict, reason: decision.reason }));
  }

  action(incident: Incident, kind: string, target: object | null, result: string, detail: object): void {
    this.safely('an action', (s) => s.insert('actions', { incident_id: incident.id, at: this.wall(), kind, target, result, detail }));
  }

  verification(incident: Incident, verdict: string, detail: string): void {
    this.safely('a verification', (s) => s.insert('verifications', { incident_id: incident.id, at: this.wall(), verdict, detail }));
  }

  evidence(claim: string, verdict: string, reason: string): void {
    this.safely('an evidence result', (s) => s.insert('evidence_results', { run_id: this.runId, claim, at: this.wall(), verdict, reason }));
  }
}
