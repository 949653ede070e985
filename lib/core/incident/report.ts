import { z } from 'zod';
import type { SignalKind } from './kinds.ts';
import { runErrorCode, signalErrorCode } from './error-codes.ts';
import { SIGNAL_KINDS, SIGNALS } from '../signals/registry.ts';

/**
 * One incident as a person reads it afterwards: what was detected, on which evidence, what
 * deadman did, what died and what survived, whether it helped, and how to avoid it next time.
 * Built from the rows the run loop stored; pure. Rows written by older or newer versions may
 * lack fields, so the JSON columns are read through lenient schemas and never crash a report.
 */

export interface IncidentRows {
  /** `error_code`: absent in rows written before migration 4. */
  incident: {
    id: number;
    run_id: number | null;
    kind: string;
    state: string;
    message: string;
    opened_at: number;
    updated_at: number;
    error_code?: string | null;
  };
  run: {
    id: number;
    name: string;
    argv: unknown;
    cwd: string;
    unit: string | null;
    started_at: number;
    ended_at: number | null;
    exit_code: number | null;
    signal: string | null;
    outcome: string | null;
    reason: string | null;
    error_code?: string | null;
  } | null;
  signal: { at: number; kind: string; message: string; evidence: unknown } | null;
  transitions: Array<{ at: number; from_state: string | null; to_state: string; reason: string }>;
  diagnoses: Array<{ at: number; source: string; action: string; rationale: string }>;
  decisions: Array<{ at: number; action: string; verdict: string; reason: string }>;
  actions: Array<{ at: number; kind: string; target: unknown; result: string; detail: unknown }>;
  verifications: Array<{ at: number; verdict: string; detail: unknown }>;
  /** Later runs of the same name that stalled the same way while this incident was open. */
  recurrences: Array<{ at: number; run_id: number | null; message: string }>;
}

const processSchema = z.looseObject({
  pid: z.number(),
  ppid: z.number().catch(0),
  startTime: z.number().nullable().catch(null),
  state: z.string().catch('?'),
  comm: z.string().catch(''),
  cmdline: z.array(z.string()).catch([]),
  cpuTicks: z.number().nullable().catch(null),
});
export type ProcessSnapshot = z.output<typeof processSchema>;

const evidenceSchema = z
  .looseObject({
    processes: z.array(z.unknown()).catch([]),
    lastLines: z.array(z.string()).catch([]),
    target: z.unknown().optional(),
  })
  .catch({ processes: [], lastLines: [] });

const actionDetailSchema = z
  .looseObject({
    killed: z.array(z.number()).catch([]),
    survived: z.array(z.number()).catch([]),
  })
  .catch({ killed: [], survived: [] });

export interface IncidentReport {
  id: number;
  kind: string;
  /** The stable code of the incident's signal (error-codes.ts). */
  errorCode: string | null;
  state: string;
  message: string;
  openedAt: string;
  updatedAt: string;
  run: {
    id: number;
    name: string;
    unit: string | null;
    argv: string[];
    cwd: string;
    startedAt: string;
    endedAt: string | null;
    exitCode: number | null;
    signal: string | null;
    outcome: string | null;
    reason: string | null;
    errorCode: string | null;
  } | null;
  timeline: Array<{ at: string; from: string | null; to: string; reason: string }>;
  signal: {
    at: string;
    kind: string;
    message: string;
    processes: ProcessSnapshot[];
    target: ProcessSnapshot | null;
    lastLines: string[];
  } | null;
  diagnoses: Array<{ at: string; source: string; action: string; rationale: string }>;
  decisions: Array<{ at: string; action: string; verdict: string; reason: string }>;
  actions: Array<{
    at: string;
    kind: string;
    result: string;
    target: ProcessSnapshot | null;
    killed: number[];
    survived: number[];
  }>;
  verifications: Array<{ at: string; verdict: string; detail: string }>;
  recurrences: Array<{ at: string; runId: number | null; message: string }>;
  advice: string;
}

/** One line per kind, from its row: what to change so this does not happen again. */
export const PREVENTION_ADVICE = Object.fromEntries(SIGNAL_KINDS.map((kind) => [kind, SIGNALS[kind].advice])) as Record<
  SignalKind,
  string
>;

const GENERIC_ADVICE =
  'Read the timeline and the evidence above; `deadman incidents` shows whether it keeps happening.';

export function adviceFor(kind: string): string {
  return (PREVENTION_ADVICE as Record<string, string>)[kind] ?? GENERIC_ADVICE;
}

/** Wall-clock milliseconds → an ISO time, the one format both the text and the JSON use. */
export function isoTime(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms);
}

/** The incident's run as the report shows it. */
function reportRun(run: NonNullable<IncidentRows['run']>): IncidentReport['run'] {
  return {
    id: run.id,
    name: run.name,
    unit: run.unit,
    argv: z.array(z.string()).catch([]).parse(run.argv),
    cwd: run.cwd,
    startedAt: isoTime(run.started_at),
    endedAt: run.ended_at === null ? null : isoTime(run.ended_at),
    exitCode: run.exit_code,
    signal: run.signal,
    outcome: run.outcome,
    reason: run.reason,
    errorCode:
      run.error_code !== undefined
        ? run.error_code
        : run.outcome === null
          ? null
          : runErrorCode({ outcome: run.outcome }),
  };
}

/** An action row as the report shows it: its target and what the kill reached. */
function reportAction(a: IncidentRows['actions'][number]): IncidentReport['actions'][number] {
  const detail = actionDetailSchema.parse(a.detail);
  return {
    at: isoTime(a.at),
    kind: a.kind,
    result: a.result,
    target: toProcess(a.target),
    killed: detail.killed,
    survived: detail.survived,
  };
}

export function buildReport(rows: IncidentRows): IncidentReport {
  const { incident, run, signal } = rows;
  return {
    id: incident.id,
    kind: incident.kind,
    errorCode: incident.error_code ?? signalErrorCode(incident.kind),
    state: incident.state,
    message: incident.message,
    openedAt: isoTime(incident.opened_at),
    updatedAt: isoTime(incident.updated_at),
    run: run && reportRun(run),
    timeline: rows.transitions.map((t) => ({
      at: isoTime(t.at),
      from: t.from_state,
      to: t.to_state,
      reason: t.reason,
    })),
    signal: signal && buildSignal(signal),
    diagnoses: rows.diagnoses.map((d) => ({
      at: isoTime(d.at),
      source: d.source,
      action: d.action,
      rationale: d.rationale,
    })),
    decisions: rows.decisions.map((d) => ({
      at: isoTime(d.at),
      action: d.action,
      verdict: d.verdict,
      reason: d.reason,
    })),
    actions: rows.actions.map(reportAction),
    verifications: rows.verifications.map((v) => ({
      at: isoTime(v.at),
      verdict: v.verdict,
      detail: typeof v.detail === 'string' ? v.detail : JSON.stringify(v.detail),
    })),
    recurrences: rows.recurrences.map((r) => ({ at: isoTime(r.at), runId: r.run_id, message: r.message })),
    advice: adviceFor(incident.kind),
  };
}

function buildSignal(signal: NonNullable<IncidentRows['signal']>): NonNullable<IncidentReport['signal']> {
  const evidence = evidenceSchema.parse(signal.evidence ?? {});
  return {
    at: isoTime(signal.at),
    kind: signal.kind,
    message: signal.message,
    processes: evidence.processes.map(toProcess).filter((p): p is ProcessSnapshot => p !== null),
    target: toProcess(evidence.target),
    lastLines: evidence.lastLines,
  };
}

function toProcess(value: unknown): ProcessSnapshot | null {
  const parsed = processSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
