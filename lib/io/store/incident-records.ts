import type { IncidentRows } from '../../core/incident/report.ts';
import type { IncidentListRow } from '../../core/incident/report-text.ts';
import type { Store } from './store.ts';

/**
 * The queries behind `deadman incidents` and `deadman report`: the rows of one incident, in
 * the shapes the pure report builder reads. Everything is ordered by time, then id, so two
 * rows written in the same millisecond keep the order they were written in.
 */

export interface IncidentFilter {
  /** Wall-clock ms: incidents opened at or after this time. */
  since?: number | undefined;
  /** Only incidents of runs with this name. */
  name?: string | undefined;
}

export function listIncidents(store: Store, filter: IncidentFilter = {}): IncidentListRow[] {
  const recurrences = store.hasTable('incident_recurrences')
    ? '(SELECT COUNT(*) FROM incident_recurrences c WHERE c.incident_id = i.id)'
    : '0';
  return store.all<IncidentListRow>(
    `SELECT i.id, i.kind, i.state, i.message, i.opened_at, i.updated_at, i.run_id, r.name AS run_name, ${recurrences} AS recurrences
       FROM incidents i LEFT JOIN runs r ON r.id = i.run_id
      WHERE i.opened_at >= ? AND (? IS NULL OR r.name = ?)
      ORDER BY i.opened_at, i.id`,
    filter.since ?? 0,
    filter.name ?? null,
    filter.name ?? null,
  );
}

export function latestIncidentId(store: Store, name?: string): number | null {
  const row = store.get<{ id: number }>(
    `SELECT i.id FROM incidents i LEFT JOIN runs r ON r.id = i.run_id
      WHERE (? IS NULL OR r.name = ?) ORDER BY i.opened_at DESC, i.id DESC LIMIT 1`,
    name ?? null,
    name ?? null,
  );
  return row?.id ?? null;
}

export function loadIncidentRows(store: Store, id: number): IncidentRows | null {
  const incident = store.get<IncidentRows['incident'] & { signal_id: number | null }>(
    'SELECT * FROM incidents WHERE id = ?',
    id,
  );
  if (!incident) return null;
  const byIncident = <T>(table: string) =>
    store.all<T>(`SELECT * FROM ${table} WHERE incident_id = ? ORDER BY at, id`, id);
  return {
    incident,
    run:
      incident.run_id === null
        ? null
        : (store.get<NonNullable<IncidentRows['run']>>('SELECT * FROM runs WHERE id = ?', incident.run_id) ?? null),
    signal:
      incident.signal_id === null
        ? null
        : (store.get<NonNullable<IncidentRows['signal']>>('SELECT * FROM signals WHERE id = ?', incident.signal_id) ??
          null),
    transitions: byIncident('incident_transitions'),
    diagnoses: byIncident('diagnoses'),
    decisions: byIncident('decisions'),
    actions: byIncident('actions'),
    verifications: byIncident('verifications'),
    recurrences: store.hasTable('incident_recurrences') ? byIncident('incident_recurrences') : [],
  };
}
