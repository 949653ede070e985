import { formatAge } from '../config/duration.ts';
import type { Marker } from '../revive/marker.ts';

/**
 * `deadman status`: one row per run name, from its revive marker when there is one (the
 * live state), else from its latest run row, with its latest incident still open.
 */

export interface StatusMarker {
  name: string;
  marker: Marker | null;
  /** One line when the marker file is damaged. */
  problem: string | null;
  ownerAlive: boolean;
}

export interface StatusRun {
  name: string;
  session_id: string | null;
  started_at: number;
  ended_at: number | null;
  outcome: string | null;
  pid: number;
}

export interface StatusIncident {
  id: number;
  kind: string;
  state: string;
  run_name: string | null;
}

export interface StatusRow {
  name: string;
  state: string;
  sessionId: string | null;
  /** Wall-clock ms of the last change. */
  updatedAt: number | null;
  revives: number | null;
  reason: string | null;
  openIncident: { id: number; kind: string; state: string } | null;
}

export function statusRows(markers: readonly StatusMarker[], runs: readonly StatusRun[], incidents: readonly StatusIncident[]): StatusRow[] {
  const openIncident = (name: string) => {
    const found = incidents.filter((i) => i.run_name === name && i.state !== 'RESOLVED').at(-1);
    return found ? { id: found.id, kind: found.kind, state: found.state } : null;
  };
  const fromMarkers = markers.map(({ name, marker, problem, ownerAlive }): StatusRow => {
    if (marker === null) return { name, state: 'damaged marker', sessionId: null, updatedAt: null, revives: null, reason: problem, openIncident: openIncident(name) };
    const owner = marker.owner?.pid;
    const state = marker.state !== 'running' ? marker.state : ownerAlive ? `running (pid ${owner})` : `interrupted (pid ${owner} gone)`;
    return { name, state, sessionId: marker.sessionId, updatedAt: marker.updatedAt, revives: marker.reviveCount, reason: marker.reason, openIncident: openIncident(name) };
  });
  const marked = new Set(markers.map((m) => m.name));
  const fromRuns = runs.filter((run) => !marked.has(run.name)).map((run): StatusRow => ({
    name: run.name,
    state: run.ended_at === null ? `running (pid ${run.pid})` : run.outcome ?? 'ended',
    sessionId: run.session_id, updatedAt: run.ended_at ?? run.started_at, revives: null, reason: null, openIncident: openIncident(run.name),
  }));
  return [...fromMarkers, ...fromRuns].sort((a, b) => a.name.localeCompare(b.name));
}

export function renderStatus(rows: readonly StatusRow[], now: number, maxRevives: number): string {
  if (rows.length === 0) return 'no runs or revive markers yet\n';
  const table = [['NAME', 'STATE', 'SESSION', 'AGE', 'REVIVES', 'OPEN INCIDENT'], ...rows.map((row) => [
    row.name,
    row.state,
    row.sessionId ?? '-',
    row.updatedAt === null ? '-' : `${formatAge(Math.max(0, now - row.updatedAt))} ago`,
    row.revives === null ? '-' : `${row.revives}/${maxRevives}`,
    row.openIncident ? `#${row.openIncident.id} ${row.openIncident.kind} ${row.openIncident.state}` : '-',
  ])];
  const widths = table[0]!.map((_, column) => Math.max(...table.map((cells) => cells[column]!.length)));
  return table.map((cells) => cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ')).join('\n') + '\n';
}
