import { z } from 'zod';
import type { SignalKind } from './kinds.ts';
import { runErrorCode, signalErrorCode } from './error-codes.ts';

/**
 * One incident as a person reads it afterwards: what was detected, on which evidence, what
 * deadman did, what died and what survived, whether it helped, and how to avoid it next time.
 * Built from the rows the run loop stored; pure. Rows written by older or newer versions may
 * lack fields, so the JSON columns are read through lenient schemas and never crash a report.
 */

export interface IncidentRows {
  /** `error_code`: absent in rows written before migration 4. */
  incident: { id: number; run_id: number | null; kind: string; state: string; message: string; opened_at: number; updated_at: number; error_code?: string | null };
  run: { id: number; name: string; argv: unknown; cwd: string; unit: string | null; started_at: number; ended_at: number | null;
    exit_code: number | null; signal: string | null; outcome: string | null; reason: string | null; error_code?: string | null } | null;
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

const evidenceSchema = z.looseObject({
  processes: z.array(z.unknown()).catch([]),
  lastLines: z.array(z.string()).catch([]),
  target: z.unknown().optional(),
}).catch({ processes: [], lastLines: [] });

const actionDetailSchema = z.looseObject({
  killed: z.array(z.number()).catch([]),
  survived: z.array(z.number()).catch([]),
}).catch({ killed: [], survived: [] });

export interface IncidentReport {
  id: number;
  kind: string;
  /** The stable code of the incident's signal (error-codes.ts). */
  errorCode: string | null;
  state: string;
  message: string;
  openedAt: string;
  updatedAt: string;
  run: { id: number; name: string; unit: string | null; argv: string[]; cwd: string; startedAt: string; endedAt: string | null;
    exitCode: number | null; signal: string | null; outcome: string | null; reason: string | null; errorCode: string | null } | null;
  timeline: Array<{ at: string; from: string | null; to: string; reason: string }>;
  signal: { at: string; kind: string; message: string; processes: ProcessSnapshot[]; target: ProcessSnapshot | null; lastLines: string[] } | null;
  diagnoses: Array<{ at: string; source: string; action: string; rationale: string }>;
  decisions: Array<{ at: string; action: string; verdict: string; reason: string }>;
  actions: Array<{ at: string; kind: string; result: string; target: ProcessSnapshot | null; killed: number[]; survived: number[] }>;
  verifications: Array<{ at: string; verdict: string; detail: string }>;
  recurrences: Array<{ at: string; runId: number | null; message: string }>;
  advice: string;
}

/** One line per kind: what to change so this does not happen again. */
export const PREVENTION_ADVICE: Record<SignalKind, string> = {
  OUTPUT_INACTIVITY: 'The command went silent with an idle process tree: check the last output lines for what it waited on (a prompt on stdin, a network call without a timeout); raise `inactivity` only if it legitimately works silently that long.',
  HUNG_PROCESS: 'A tool command sat idle with no CPU or I/O: give the commands the agent runs their own timeouts (`timeout 10m …`) and keep interactive programs out of them (PAGER=cat, GIT_EDITOR=true, CI=1).',
  EVIDENCE_STALE: 'The evidence stopped moving while the run looked busy: check that the claim (path, freshness) still matches what the work writes, and that the work is not looping without result.',
  EVIDENCE_FAILED: 'The run reported success but its evidence did not hold (green but dead): make the job fail loudly when it produces nothing, and check the claim still matches what it writes.',
  TIMEOUT: 'The run hit its wall-time cap: raise `timeout` if the work is legitimately longer, or split it so each run finishes within the cap.',
  NOT_READY: 'The command never became ready: check `ready_pattern`/`ready_port` against what it really prints or opens, and raise `ready_timeout` if start-up is slow.',
  FINISHED_NOT_EXITED: 'The agent printed its final result and did not exit (a known Claude Code failure in stream-json mode): deadman ended the run with the result\'s verdict; update the agent, and lower `exit_grace` if the wait costs too much.',
  USAGE_LIMIT: 'The agent hit its plan or usage limit: deadman waited for the reset and resumed the session; spread the jobs over the day, or raise the plan, if it happens often.',
  REPEATED_FAILURE: 'The agent ran the same failing command again and again without changing anything: give it a way to see the failure (a test it can run alone, a clearer error), or split the task.',
  NO_PROGRESS: 'The agent kept working without changing the workspace or getting a new result: check the task is achievable as stated, and give it a check it can run that says what is missing.',
  SESSION_BUDGET_RISK: 'The session ran over its token or cost budget: split the task, or raise `budget.tokens` / `budget.cost_usd` if the work needs it.',
  HALT_AND_ESCALATE: 'The revive budget is spent: the session keeps being interrupted — find the common cause in the runs\' exits (OOM, a crashing tool, repeated stalls) before raising `revive.max_revives`.',
  REVIVE_REFUSED: 'A revive marker failed its checks (its MAC, owner, mode or a symlink) and was moved aside unread: find out who or what wrote or changed it (the file is kept beside the markers), and keep the state directory private to deadman\'s user.',
};

const GENERIC_ADVICE = 'Read the timeline and the evidence above; `deadman incidents` shows whether it keeps happening.';

export function adviceFor(kind: string): string {
  return (PREVENTION_ADVICE as Record<string, string>)[kind] ?? GENERIC_ADVICE;
}

/** Wall-clock milliseconds → an ISO time, the one format both the text and the JSON use. */
export function isoTime(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms);
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
    run: run && {
      id: run.id, name: run.name, unit: run.unit, argv: z.array(z.string()).catch([]).parse(run.argv), cwd: run.cwd,
      startedAt: isoTime(run.started_at), endedAt: run.ended_at === null ? null : isoTime(run.ended_at),
      exitCode: run.exit_code, signal: run.signal, outcome: run.outcome, reason: run.reason,
      errorCode: run.error_code !== undefined ? run.error_code : run.outcome === null ? null : runErrorCode({ outcome: run.outcome }),
    },
    timeline: rows.transitions.map((t) => ({ at: isoTime(t.at), from: t.from_state, to: t.to_state, reason: t.reason })),
    signal: signal && buildSignal(signal),
    diagnoses: rows.diagnoses.map((d) => ({ at: isoTime(d.at), source: d.source, action: d.action, rationale: d.rationale })),
    decisions: rows.decisions.map((d) => ({ at: isoTime(d.at), action: d.action, verdict: d.verdict, reason: d.reason })),
    actions: rows.actions.map((a) => {
      const detail = actionDetailSchema.parse(a.detail);
      return { at: isoTime(a.at), kind: a.kind, result: a.result, target: toProcess(a.target), killed: detail.killed, survived: detail.survived };
    }),
    verifications: rows.verifications.map((v) => ({ at: isoTime(v.at), verdict: v.verdict, detail: typeof v.detail === 'string' ? v.detail : JSON.stringify(v.detail) })),
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
