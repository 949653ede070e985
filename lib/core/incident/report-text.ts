import { formatArgv } from '../process/format-argv.ts';
import { formatAge } from '../time/duration.ts';
import { isoTime, type IncidentReport, type ProcessSnapshot } from './report.ts';

/**
 * The text forms of `deadman report` and `deadman incidents`: for a terminal or a journal, in
 * the order a person asks the questions — what happened, to what, what deadman did, did it
 * help, what to change. Pure.
 */

const COMMAND_WIDTH = 100;
const INDENT = '  ';

export function renderReportText(report: IncidentReport): string {
  const out: string[] = [
    `incident #${report.id} · ${clip(report.kind)} · ${clip(report.state)}`,
    `${INDENT}${clip(report.message)}`,
  ];
  if (report.state === 'AWAITING_APPROVAL')
    out.push(
      `${INDENT}answer: deadman approve ${report.id} (kill the hung subtree) · deadman deny ${report.id} (leave it alone)`,
    );
  out.push(`${INDENT}opened ${humanTime(report.openedAt)}, last change ${humanTime(report.updatedAt)}`);
  if (report.recurrences.length > 0) {
    out.push(`${INDENT}recurred ${times(report.recurrences.length)} after restarts, the same way:`);
    for (const r of report.recurrences)
      out.push(
        `${INDENT}${INDENT}${humanTime(r.at)}${r.runId === null ? '' : `  run #${r.runId}`}  ${clip(r.message, COMMAND_WIDTH)}`,
      );
  }
  if (report.run) {
    const run = report.run;
    out.push('', `run #${run.id} · ${run.name}${run.unit ? ` · ${run.unit}` : ''}`);
    out.push(
      `${INDENT}command: ${clip(formatArgv(run.argv, { quoting: 'json' }), COMMAND_WIDTH * 2)}`,
      `${INDENT}cwd:     ${clip(run.cwd)}`,
    );
    out.push(
      `${INDENT}started ${humanTime(run.startedAt)}, ${run.endedAt ? `ended ${humanTime(run.endedAt)}: ${runEnd(run)}` : 'still running (or ended without a record)'}`,
    );
  }
  out.push('', 'timeline');
  if (report.timeline.length === 0) out.push(`${INDENT}(no transitions recorded)`);
  for (const t of report.timeline)
    out.push(`${INDENT}${humanTime(t.at)}  ${(t.from ?? '·').padEnd(17)} → ${t.to.padEnd(17)} ${clip(t.reason)}`);
  if (report.signal) out.push('', ...renderSignal(report.signal));
  for (const d of report.diagnoses)
    out.push('', `diagnosis (${d.source}) ${humanTime(d.at)}: ${d.action} — ${d.rationale}`);
  for (const d of report.decisions) out.push('', `decision ${humanTime(d.at)}: ${d.action} ${d.verdict} — ${d.reason}`);
  for (const a of report.actions) {
    out.push('', `action ${humanTime(a.at)}: ${a.kind} → ${a.result}`);
    if (a.target) out.push(`${INDENT}target:   ${describeProcess(a.target)}`);
    out.push(`${INDENT}died:     ${pids(a.killed)}`, `${INDENT}survived: ${pids(a.survived)}`);
  }
  for (const v of report.verifications)
    out.push('', `verification ${humanTime(v.at)}: ${v.verdict} — ${clip(v.detail)}`);
  if (report.actions.length === 0 && report.verifications.length === 0) out.push('', 'no recovery action was taken');
  out.push('', `advice: ${report.advice}`, '');
  return out.join('\n');
}

function renderSignal(signal: NonNullable<IncidentReport['signal']>): string[] {
  const out = [`signal ${humanTime(signal.at)}: ${signal.kind} — ${clip(signal.message)}`];
  if (signal.target) out.push(`${INDENT}target: ${describeProcess(signal.target)}`);
  if (signal.processes.length > 0) {
    out.push(`${INDENT}process tree at detection (START: start time in clock ticks; with the pid, the identity):`);
    out.push(
      `${INDENT}${INDENT}${'PID'.padStart(7)} ${'PPID'.padStart(7)} ST ${'START'.padStart(10)} ${'CPU'.padStart(7)}  COMMAND`,
    );
    for (const [depth, p] of treeOrder(signal.processes)) {
      const marker = signal.target && signal.target.pid === p.pid ? '  ◀ target' : '';
      out.push(
        `${INDENT}${INDENT}${String(p.pid).padStart(7)} ${String(p.ppid).padStart(7)} ${p.state.padEnd(2)} ${String(p.startTime ?? '?').padStart(10)} ${String(p.cpuTicks ?? '?').padStart(7)}  ${'  '.repeat(depth)}${clip(commandOf(p), COMMAND_WIDTH)}${marker}`,
      );
    }
  }
  if (signal.lastLines.length > 0) {
    out.push(`${INDENT}last output lines:`);
    for (const line of signal.lastLines) out.push(`${INDENT}${INDENT}| ${clip(line, COMMAND_WIDTH * 2)}`);
  }
  return out;
}

/** Parents before their children, each child indented one step deeper. */
export function treeOrder(processes: readonly ProcessSnapshot[]): Array<[number, ProcessSnapshot]> {
  const pids = new Set(processes.map((p) => p.pid));
  const children = new Map<number, ProcessSnapshot[]>();
  for (const p of processes) {
    const parent = pids.has(p.ppid) && p.ppid !== p.pid ? p.ppid : -1;
    children.set(parent, [...(children.get(parent) ?? []), p]);
  }
  const out: Array<[number, ProcessSnapshot]> = [];
  const seen = new Set<number>();
  const visit = (parent: number, depth: number) => {
    for (const p of (children.get(parent) ?? []).sort((a, b) => a.pid - b.pid)) {
      if (seen.has(p.pid)) continue;
      seen.add(p.pid);
      out.push([depth, p]);
      visit(p.pid, depth + 1);
    }
  };
  visit(-1, 0);
  // A ppid cycle (corrupt rows) has no root; list what is left flat rather than lose it.
  for (const p of processes) if (!seen.has(p.pid)) out.push([0, p]);
  return out;
}

export interface IncidentListRow {
  id: number;
  kind: string;
  state: string;
  message: string;
  opened_at: number;
  updated_at: number;
  run_id: number | null;
  run_name: string | null;
  /** How many times it came back after a restart (0: once only). */
  recurrences: number;
}

export function incidentListJson(rows: readonly IncidentListRow[]): object[] {
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    state: r.state,
    message: r.message,
    openedAt: isoTime(r.opened_at),
    updatedAt: isoTime(r.updated_at),
    run: r.run_id === null ? null : { id: r.run_id, name: r.run_name },
    recurrences: r.recurrences ?? 0,
  }));
}

export function renderIncidentList(rows: readonly IncidentListRow[], now: number): string {
  if (rows.length === 0) return 'no incidents recorded\n';
  // Some kinds are longer than the usual 17 characters: the column fits the longest shown.
  const kindWidth = Math.max(17, ...rows.map((r) => r.kind.length));
  const lines = rows.map((r) =>
    [
      `#${r.id}`.padEnd(6),
      humanTime(isoTime(r.opened_at)),
      `${formatAge(Math.max(0, now - r.opened_at))} ago`.padEnd(14),
      r.kind.padEnd(kindWidth),
      r.state.padEnd(17),
      (r.run_name ?? '-').padEnd(16),
      `${r.recurrences ? `(${times(r.recurrences + 1)}) ` : ''}${clip(r.message, COMMAND_WIDTH)}`,
    ].join(' '),
  );
  return `${lines.join('\n')}\n${rows.length} incident${rows.length === 1 ? '' : 's'} · details: deadman report <id>\n`;
}

/** `2026-12-01T08:50:12.345Z` → `2026-12-01 08:50:12Z`: seconds are enough to read a timeline. */
function humanTime(iso: string): string {
  return iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

function runEnd(run: NonNullable<IncidentReport['run']>): string {
  const how = run.signal ? `killed by ${run.signal}` : `exit ${run.exitCode ?? '?'}`;
  return [how, run.outcome, run.reason].filter(Boolean).join(' · ');
}

function describeProcess(p: ProcessSnapshot): string {
  return `pid ${p.pid} (start ${p.startTime ?? '?'}) ${clip(commandOf(p), COMMAND_WIDTH)}`;
}

function commandOf(p: ProcessSnapshot): string {
  return p.cmdline.length > 0 ? formatArgv(p.cmdline, { quoting: 'json' }) : `[${p.comm}]`;
}

function times(count: number): string {
  return count === 1 ? 'once' : `${count} times`;
}

function pids(list: readonly number[]): string {
  return list.length === 0 ? 'none' : list.join(', ');
}

/**
 * Stored text is whatever the child printed: keep it on one line and make control characters
 * (terminal escapes included) visible instead of letting them act on the reader's terminal.
 */
function clip(text: string, width = Infinity): string {
  const oneLine = text
    .replace(/\r?\n/g, '⏎')
    .replace(/\t/g, ' ')
    .replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return oneLine.length > width ? `${oneLine.slice(0, width - 1)}…` : oneLine;
}
