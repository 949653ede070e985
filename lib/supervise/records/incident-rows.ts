import { signalErrorCode } from '../../core/incident/error-codes.ts';
import type { SignalKind } from '../../core/incident/kinds.ts';
import type { Store } from '../../io/store/store.ts';
import type { Incident, SignalEvidence } from '../record-types.ts';

/**
 * The rows that make an incident, as RunRecords writes them: a new one, a recurrence of one an
 * earlier run of the name left open, or one carried into a fresh database whose predecessor
 * (with the incident's row) was deleted or moved aside under the run.
 */

export interface OpenedIncident {
  kind: SignalKind;
  message: string;
  evidence: SignalEvidence;
  fingerprint: string;
  at: number;
}

/** The open incident of `name` that stalled the same way, reopened with a recurrence; null when there is none. */
export function recurIncident(s: Store, name: string, runId: number, opened: OpenedIncident): number | null {
  const open = s.get<{ id: number; state: string }>(
    `SELECT i.id, i.state FROM incidents i JOIN runs r ON r.id = i.run_id
      WHERE r.name = ? AND i.fingerprint = ? AND i.state <> 'RESOLVED' ORDER BY i.id DESC LIMIT 1`,
    s.redacted(name),
    s.redacted(opened.fingerprint),
  );
  if (!open) return null;
  const { at, message } = opened;
  s.insert('incident_recurrences', { incident_id: open.id, run_id: runId, at, message });
  s.insert('incident_transitions', {
    incident_id: open.id,
    at,
    from_state: open.state,
    to_state: 'OPEN',
    reason: `recurred in run #${runId}: ${message}`,
    evidence: { run: runId },
  });
  s.update('incidents', open.id, { state: 'OPEN', updated_at: at });
  return open.id;
}

export function insertIncident(s: Store, runId: number, i: OpenedIncident): number {
  const signalId = s.insert('signals', {
    run_id: runId,
    at: i.at,
    kind: i.kind,
    message: i.message,
    evidence: i.evidence,
  });
  const incidentId = s.insert('incidents', {
    run_id: runId,
    kind: i.kind,
    state: 'OPEN',
    message: i.message,
    opened_at: i.at,
    updated_at: i.at,
    signal_id: signalId,
    fingerprint: i.fingerprint,
    error_code: signalErrorCode(i.kind),
  });
  s.insert('incident_transitions', {
    incident_id: incidentId,
    at: i.at,
    from_state: null,
    to_state: 'OPEN',
    reason: i.message,
    evidence: { signal: signalId },
  });
  return incidentId;
}

/**
 * An incident whose row went with a replaced database: written again in the fresh one, in the
 * state it has now, so its follow-up lands on its own row — not on whichever row the fresh
 * database numbered the same, nor on none (a missing row fails the write).
 */
export function carryIncident(
  s: Store,
  runId: number,
  incident: Incident,
  opened: { fingerprint: string; at: number },
  at: number,
): number {
  const incidentId = s.insert('incidents', {
    run_id: runId,
    kind: incident.kind,
    state: incident.state,
    message: incident.message,
    opened_at: opened.at,
    updated_at: at,
    signal_id: null,
    fingerprint: opened.fingerprint,
    error_code: signalErrorCode(incident.kind),
  });
  const reason = `carried over: opened ${new Date(opened.at).toISOString()} in a database that was replaced under the run (deleted or damaged); its earlier rows went with that file`;
  s.insert('incident_transitions', {
    incident_id: incidentId,
    at,
    from_state: null,
    to_state: incident.state,
    reason,
    evidence: { carried_from: incident.id },
  });
  return incidentId;
}
