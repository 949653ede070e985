/**
 * The block `deadman run`, `attach` and `agent` end with: how the run ended (status, return
 * code, error code), what the agent said (event counts, session), and the last incident's path
 * through the pipeline (signal, action, policy, verification), with where the records are. Also
 * as one JSON object (`run --json`). Built from the rows the run wrote; pure.
 */

export interface RunSummaryFacts {
  name: string;
  outcome: string | null;
  exitCode: number | null;
  errorCode: string | null;
  reason: string | null;
  sessionId: string | null;
  /** Recorded events of the run's passes, per kind (the events table; retention may cap it). */
  events: Record<string, number>;
  passes: number;
  /** The last incident of the run's passes, when there was one. */
  incident: {
    id: number;
    kind: string;
    state: string;
    message: string;
    action: string | null;
    policy: { verdict: string; reason: string } | null;
    verification: { verdict: string; detail: string } | null;
  } | null;
  incidents: number;
  database: string;
}

const SHOWN_KINDS = 6;

/** The block, for a person at a terminal (or `--summary`). */
export function renderRunSummary(f: RunSummaryFacts, exitCode: number): string {
  const rows = summaryRows(f, exitCode);
  const width = Math.max(...rows.map(([label]) => label.length));
  return [
    `summary of run ${f.name}`,
    ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${oneLine(value)}`),
  ].join('\n');
}

/** The same rows as one journal line, leaving out the ones with nothing to say. */
export function renderRunSummaryLine(f: RunSummaryFacts, exitCode: number): string {
  const said = summaryRows(f, exitCode).filter(([, value]) => !/^none( recorded| reported)?$/.test(value));
  return `summary of run ${f.name}: ${said.map(([label, value]) => `${label} ${oneLine(value)}`).join(' · ')}`;
}

function summaryRows(f: RunSummaryFacts, exitCode: number): Array<[string, string]> {
  const total = Object.values(f.events).reduce((a, b) => a + b, 0);
  const kinds = Object.entries(f.events)
    .sort((a, b) => b[1] - a[1])
    .slice(0, SHOWN_KINDS)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');
  const i = f.incident;
  return [
    [
      'status',
      `${f.outcome ?? 'not recorded'}${f.errorCode ? ` (${f.errorCode})` : ''}${f.reason ? `: ${f.reason}` : ''}`,
    ],
    ['return code', String(exitCode)],
    ['events', total ? `${total} (${kinds}) over ${f.passes} pass(es)` : 'none recorded'],
    ['session', f.sessionId ?? 'none reported'],
    ['signal', i ? `#${i.id} ${i.kind}: ${i.message}${f.incidents > 1 ? ` (+${f.incidents - 1} more)` : ''}` : 'none'],
    ['action', i?.action ?? 'none'],
    ['policy', i?.policy ? `${i.policy.verdict}: ${i.policy.reason}` : 'none'],
    [
      'verification',
      i?.verification
        ? `${i.verification.verdict}: ${i.verification.detail}`
        : i
          ? `none (incident ${i.state})`
          : 'none',
    ],
    ['database', f.database],
  ];
}

export function runSummaryJson(f: RunSummaryFacts, exitCode: number): object {
  return {
    name: f.name,
    status: f.outcome,
    return_code: exitCode,
    error_code: f.errorCode,
    reason: f.reason,
    events: f.events,
    passes: f.passes,
    session_id: f.sessionId,
    incident: f.incident && {
      id: f.incident.id,
      kind: f.incident.kind,
      state: f.incident.state,
      message: f.incident.message,
      action: f.incident.action,
      policy: f.incident.policy,
      verification: f.incident.verification,
    },
    incidents: f.incidents,
    database: f.database,
  };
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
