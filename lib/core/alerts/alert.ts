/**
 * What deadman tells the operator's sinks, and the requests that carry it: a generic webhook
 * (the alert as JSON), healthchecks-style ping URLs (start, success, or the exit code as runitor
 * pings them, with the output's tail as the body), an ntfy-style topic (a short text with a
 * title and a priority) and a command (the alert as JSON on stdin). Pure: the io side sends what
 * this builds. `deadman run` sends alerts by itself (alert-planner.ts decides which);
 * `deadman notify` sends one by hand or from OnFailure=.
 */

export const ALERT_EVENTS = ['start', 'success', 'fail', 'incident'] as const;
export type AlertEvent = (typeof ALERT_EVENTS)[number];

/** Incident states in which the incident waits for a person. */
export const NEEDS_A_PERSON: ReadonlySet<string> = new Set(['AWAITING_APPROVAL', 'ESCALATED']);

export interface Alert {
  event: AlertEvent;
  /** The run's name (the unit instance under systemd). */
  name: string;
  host: string;
  /** ISO-8601 UTC. */
  at: string;
  /** Who sent it: `run` (deadman run itself), `notify` (deadman notify, e.g. from OnFailure=: deadman could not send) or `check` (a job's state changed). */
  source: 'run' | 'notify' | 'check';
  exit_code: number | null;
  /** The run's outcome (completed, stalled, halted, …) for a success or fail the run sent; the job's state (dead, unknown, alive) for one `check` sent; else null. */
  outcome: string | null;
  /** The stable error code (core/incident/error-codes.ts) of the run's end or the incident's signal; null for a success or a start. */
  code: string | null;
  /** Why: the run's reason for its end, or the incident's transition. */
  reason: string | null;
  /** `error_code`: the stable code of the incident's signal (lib/core/incident/error-codes.ts). */
  incident: { id: number; kind: string; error_code: string | null; state: string; message: string } | null;
  /** What a person can type now (`deadman approve ID …`, `deadman deny ID …`), as it works from a shell. */
  commands: string[];
  /** 0 for the first alert of an incident, n for the nth reminder while it still waits. */
  reminder: number;
  /** The last lines of the run's output (success, fail the run sent), redacted, at most TAIL_LIMIT characters. */
  output_tail: string[];
}

/** runitor's default ping body limit: the tail a healthchecks-style ping carries. */
export const TAIL_LIMIT = 10_000;

export interface AlertSinks {
  webhook: readonly string[];
  healthchecks?: string | undefined;
  ntfy?: string | undefined;
  command?: readonly string[] | undefined;
}

export type AlertRequest =
  | { sink: 'webhook' | 'healthchecks' | 'ntfy'; url: string; headers: Record<string, string>; body: string }
  | { sink: 'command'; argv: readonly string[]; stdin: string };

/** An alert of `event` with nothing known yet beyond who sends it, when and where. */
export function blankAlert(base: Pick<Alert, 'event' | 'name' | 'host' | 'at' | 'source'>): Alert {
  return {
    ...base,
    exit_code: null,
    outcome: null,
    code: null,
    reason: null,
    incident: null,
    commands: [],
    reminder: 0,
    output_tail: [],
  };
}

export function alertSummary(alert: Alert): string {
  const what =
    alert.source === 'check'
      ? `job ${alert.outcome}`
      : alert.incident
        ? `incident #${alert.incident.id} ${alert.incident.kind} ${alert.incident.state}: ${alert.incident.message}`
        : alert.event === 'start'
          ? 'started'
          : alert.exit_code === null
            ? alert.event
            : `exit ${alert.exit_code}`;
  const reminder = alert.reminder > 0 ? ` (reminder ${alert.reminder}: still waiting)` : '';
  const why = alert.reason && alert.reason !== alert.incident?.message ? ` · ${alert.reason}` : '';
  const answer = alert.commands.length > 0 ? ` · answer: ${alert.commands.join(' or ')}` : '';
  return `deadman ${alert.name} on ${alert.host}: ${alert.event}${reminder} · ${what}${why}${answer}`;
}

export function buildAlertRequests(alert: Alert, sinks: AlertSinks): AlertRequest[] {
  const json = JSON.stringify(alert);
  const requests: AlertRequest[] = sinks.webhook.map((url) => ({
    sink: 'webhook' as const,
    url,
    headers: { 'content-type': 'application/json' },
    body: json,
  }));
  if (sinks.healthchecks)
    requests.push({
      sink: 'healthchecks',
      url: healthchecksUrl(sinks.healthchecks, alert),
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: pingBody(alert),
    });
  if (sinks.ntfy)
    requests.push({ sink: 'ntfy', url: sinks.ntfy, headers: ntfyHeaders(alert), body: alertSummary(alert) });
  if (sinks.command?.length) requests.push({ sink: 'command', argv: sinks.command, stdin: json });
  return requests;
}

/** The kinds of sink `[notify]` sends alerts to, for the run's banner: `webhook ×2, ntfy`; empty when none is set. */
export function alertSinkNames(sinks: AlertSinks): string[] {
  const names =
    sinks.webhook.length === 0 ? [] : [sinks.webhook.length > 1 ? `webhook ×${sinks.webhook.length}` : 'webhook'];
  if (sinks.healthchecks !== undefined) names.push('healthchecks');
  if (sinks.ntfy !== undefined) names.push('ntfy');
  if ((sinks.command?.length ?? 0) > 0) names.push('command');
  return names;
}

/** The summary, then the output's tail as runitor sends it: its end kept when it is too long. */
function pingBody(alert: Alert): string {
  const tail = alert.output_tail.join('\n');
  return tail === '' ? alertSummary(alert) : `${alertSummary(alert)}\n\n${tail.slice(-TAIL_LIMIT)}`;
}

/**
 * healthchecks.io's ping API: `<url>/start`, `<url>` for success, `<url>/<exit status>` or
 * `/fail`. An incident that waits for a person pings `/fail` (the check goes down and its
 * integrations reach someone); any other incident only `/log`s.
 */
function healthchecksUrl(base: string, alert: Alert): string {
  const trimmed = base.replace(/\/+$/, '');
  switch (alert.event) {
    case 'start':
      return `${trimmed}/start`;
    case 'success':
      return trimmed;
    case 'fail':
      return alert.exit_code === null ? `${trimmed}/fail` : `${trimmed}/${alert.exit_code}`;
    case 'incident':
      return NEEDS_A_PERSON.has(alert.incident?.state ?? '') ? `${trimmed}/fail` : `${trimmed}/log`;
  }
}

function ntfyHeaders(alert: Alert): Record<string, string> {
  const urgent = alert.event === 'fail' || (alert.event === 'incident' && alert.incident?.state !== 'RESOLVED');
  return {
    'content-type': 'text/plain; charset=utf-8',
    title: `deadman ${alert.name}: ${alert.event === 'incident' && urgent ? 'a person is needed' : alert.event}`,
    priority: urgent ? 'high' : 'default',
    tags: urgent ? 'warning' : 'white_check_mark',
  };
}
