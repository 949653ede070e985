import { formatAge } from '../time/duration.ts';
import { isSettled } from '../incident/incident.ts';
import type { Marker } from '../revive/marker.ts';
import { lostRunReason, runPresence, type RecordedRunEnd } from './run-presence.ts';

/**
 * `deadman status`: one row per run name, its state from how its latest run ended (the run
 * row's outcome and exit code) and what its revive marker says since (a live or detached
 * resume, a spent budget), plus the refusal of a forged marker (its REVIVE_REFUSED incident)
 * and the latest open incident. Each state says whether a person should look, and so does an
 * escalated incident nobody resolved: `status` exits 1 when any row needs attention.
 */

export const STATUS_STATES = [
  'running',
  'revived',
  'completed',
  'stopped',
  'failed',
  'green_but_dead',
  'stalled',
  'timeout',
  'killed',
  'interrupted',
  'exhausted',
  'halted',
  'usage_limit',
  'credit_exhausted',
  'refused',
  'damaged',
] as const;
export type StatusState = (typeof STATUS_STATES)[number];

/** States no person needs to look at: a live run, a clean completion, a deliberate stop (`systemctl stop`). */
const WELL: ReadonlySet<StatusState> = new Set(['running', 'revived', 'completed', 'stopped']);

const NEEDS_PERSON: ReadonlySet<string> = new Set(['AWAITING_APPROVAL', 'ESCALATED']);

/** Whether an incident in this state waits on a person — an answer (approve/deny) or a look (escalated): status's exit 1, and what an alert must reach. */
export function incidentNeedsPerson(state: string): boolean {
  return NEEDS_PERSON.has(state);
}

export interface StatusMarker {
  name: string;
  marker: Marker | null;
  /** One line when the marker file is damaged or refused. */
  problem: string | null;
  /** A live process of the session (owner or run tag), or null. */
  livePid: number | null;
}

export interface StatusRun extends RecordedRunEnd {
  id: number;
  name: string;
  session_id: string | null;
  started_at: number;
  ended_at: number | null;
  exit_code: number | null;
  /** The latest run's stable error code (error-codes.ts); absent before migration 4. */
  error_code?: string | null;
  pid: number;
  reason: string | null;
}

export interface StatusIncident {
  id: number;
  kind: string;
  state: string;
  message: string;
  /** Wall-clock ms of the last change: a refusal that recurs in a later run is reopened then. */
  updated_at: number;
  run_name: string | null;
}

export interface StatusRow {
  name: string;
  state: StatusState;
  /** The exit code of the latest run, when it ended. */
  exitCode: number | null;
  errorCode: string | null;
  sessionId: string | null;
  /** Wall-clock ms of the last change. */
  updatedAt: number | null;
  revives: number | null;
  reason: string | null;
  openIncident: { id: number; kind: string; state: string } | null;
  needsAttention: boolean;
}

type Verdict = Pick<StatusRow, 'state' | 'updatedAt' | 'reason'>;

const OUTCOME_STATES: Record<string, StatusState> = {
  completed: 'completed',
  recovered_and_resumed: 'completed',
  failed: 'failed',
  'spawn-failed': 'failed',
  'green-but-dead': 'green_but_dead',
  stalled: 'stalled',
  timeout: 'timeout',
  stopped: 'stopped',
  'revive-exhausted': 'exhausted',
  halted: 'halted',
  'owned-elsewhere': 'running',
  'revive-refused': 'refused',
  // A pass outcome on the latest row: the run did not go on (beyond max_wait; fresh sessions over budget too often): exit 69.
  'usage-limit': 'usage_limit',
  respawn: 'exhausted',
  'credit-exhausted': 'credit_exhausted',
};

/** A run that came to a clean end: it settles what earlier runs of its name escalated (io/store/run-ends.ts). */
export function completedCleanly(run: { outcome: string | null; exit_code: number | null }): boolean {
  return OUTCOME_STATES[run.outcome ?? ''] === 'completed' && run.exit_code === 0;
}

/** A run row's state by itself (no revive marker): what `metrics` exports as `deadman_run_state`. */
export function runRowState(run: StatusRun, ownerAlive: boolean): StatusState {
  return fromRun(run, ownerAlive).state;
}

function fromRun(run: StatusRun, ownerAlive: boolean): Verdict {
  const presence = runPresence(run, ownerAlive);
  if (presence === 'running') return { state: 'running', updatedAt: run.started_at, reason: null };
  if (presence === 'lost')
    return {
      state: 'killed',
      updatedAt: run.ended_at ?? run.started_at,
      reason: run.ended_at === null ? lostRunReason(run) : (run.reason ?? run.outcome),
    };
  return { state: OUTCOME_STATES[run.outcome ?? ''] ?? 'failed', updatedAt: run.ended_at, reason: run.outcome };
}

function fromMarker(marker: Marker, livePid: number | null): Verdict {
  const base = { updatedAt: marker.updatedAt, reason: marker.reason };
  if (marker.state === 'running') {
    if (livePid !== null) return { ...base, state: marker.reviveCount > 0 ? 'revived' : 'running' };
    return { ...base, state: 'interrupted', reason: `pid ${marker.owner?.pid ?? '?'} is gone` };
  }
  return { ...base, state: marker.state };
}

/** The marker speaks for the run when it is live, spent, or newer than the latest run row (a detached resume). */
function verdict(
  marker: StatusMarker | undefined,
  run: StatusRun | undefined,
  ownerAlive: (run: StatusRun) => boolean,
): Verdict {
  const m = marker?.marker ?? null;
  if (marker && m === null) return { state: 'damaged', updatedAt: null, reason: marker.problem };
  const runVerdict = run ? fromRun(run, ownerAlive(run)) : null;
  if (m === null) return runVerdict!;
  const { livePid } = marker!;
  // A session process outliving its killed deadman runs unsupervised: that is no live run.
  if (runVerdict?.state === 'killed' && (livePid === null || livePid !== m.owner?.pid)) {
    return livePid === null
      ? runVerdict
      : { ...runVerdict, reason: `${runVerdict.reason}; pid ${livePid} of its session runs on unsupervised` };
  }
  const markerVerdict = fromMarker(m, livePid);
  if (runVerdict === null || livePid !== null || m.state === 'exhausted') return markerVerdict;
  return (runVerdict.updatedAt ?? 0) >= m.updatedAt || m.detachedLog === null ? runVerdict : markerVerdict;
}

/**
 * `isRefusal`: whether a kind's incidents are refusals (its row's `refusal`, core/signals/):
 * passed in, so a reader loads the signal registry, every detector with it, only when an
 * incident is open.
 */
export function statusRows(
  markers: readonly StatusMarker[],
  runs: readonly StatusRun[],
  incidents: readonly StatusIncident[],
  ownerAlive: (run: StatusRun) => boolean,
  isRefusal: (kind: string) => boolean,
): StatusRow[] {
  const names = [...new Set([...markers.map((m) => m.name), ...runs.map((r) => r.name)])].sort();
  return names.map((name): StatusRow => {
    const marker = markers.find((m) => m.name === name);
    const run = runs.find((r) => r.name === name);
    const unresolved = incidents.filter((i) => i.run_name === name && !isSettled(i.state));
    // The run that found a forged marker (opened or reopened a refusal as it started) went on
    // fresh: refused is what a person must know of it.
    const refusal = unresolved.find((i) => isRefusal(i.kind) && run !== undefined && i.updated_at >= run.started_at);
    let row = verdict(marker, run, ownerAlive);
    if (refusal) row = { state: 'refused', updatedAt: refusal.updated_at, reason: refusal.message };
    const open = unresolved.at(-1);
    return {
      name,
      ...row,
      exitCode: run?.ended_at != null ? run.exit_code : null,
      errorCode: run?.error_code ?? null,
      sessionId: marker?.marker?.sessionId ?? run?.session_id ?? null,
      revives: marker?.marker?.reviveCount ?? null,
      openIncident: open ? { id: open.id, kind: open.kind, state: open.state } : null,
      needsAttention: !WELL.has(row.state) || unresolved.some((i) => incidentNeedsPerson(i.state)),
    };
  });
}

/** `--json`: snake_case keys, ISO-8601 UTC times, enum states (docs/status.md). */
export function statusJson(rows: readonly StatusRow[], maxRevives: number): object[] {
  return rows.map((row) => ({
    name: row.name,
    state: row.state,
    exit_code: row.exitCode,
    error_code: row.errorCode,
    session_id: row.sessionId,
    updated_at: row.updatedAt === null ? null : new Date(row.updatedAt).toISOString(),
    revives: row.revives,
    max_revives: maxRevives,
    reason: row.reason,
    open_incident: row.openIncident,
    needs_attention: row.needsAttention,
  }));
}

function stateText(row: StatusRow): string {
  const state = row.state.replaceAll('_', '-');
  return row.exitCode !== null && row.exitCode !== 0 && row.state !== 'killed' ? `${state} ${row.exitCode}` : state;
}

export function renderStatus(rows: readonly StatusRow[], now: number, maxRevives: number): string {
  if (rows.length === 0) return 'no runs or revive markers yet\n';
  const table = [
    ['NAME', 'STATE', 'SESSION', 'AGE', 'REVIVES', 'OPEN INCIDENT'],
    ...rows.map((row) => [
      row.name,
      stateText(row),
      row.sessionId ?? '-',
      row.updatedAt === null ? '-' : `${formatAge(Math.max(0, now - row.updatedAt))} ago`,
      row.revives === null ? '-' : `${row.revives}/${maxRevives}`,
      row.openIncident ? `#${row.openIncident.id} ${row.openIncident.kind} ${row.openIncident.state}` : '-',
    ]),
  ];
  const widths = table[0]!.map((_, column) => Math.max(...table.map((cells) => cells[column]!.length)));
  return (
    table
      .map((cells) =>
        cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  '),
      )
      .join('\n') + '\n'
  );
}
