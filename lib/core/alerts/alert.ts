/**
 * What `deadman notify` tells the operator's sinks, and the requests that carry it: a generic
 * webhook (the alert as JSON), healthchecks-style ping URLs (start, success, or the exit code as
 * runitor pings them), an ntfy-style topic (a short text with a title and a priority) and a
 * command (the alert as JSON on stdin). Pure: the io side sends what this builds.
 */

export const ALERT_EVENTS = ['start', 'success', 'fail', 'incident'] as const;
export type AlertEvent = (typeof ALERT_EVENTS)[number];

export interface Alert {
  event: AlertEvent;
  /** The run's name (the unit instance under systemd). */
  name: string;
  host: string;
  /** ISO-8601 UTC. */
  at: string;
  exit_code: number | null;
  /** `error_code`: the stable code of the incident's signal (lib/core/incident/error-codes.ts). */
  incident: { id: number; kind: string; error_code: string | null; state: string; message: string } | null;
}

export interface AlertSinks {
  webhook: readonly string[];
  healthchecks?: string | undefined;
  ntfy?: string | undefined;
  command?: readonly string[] | undefined;
}

export type AlertRequest =
  | { sink: 'webhook' | 'healthchecks' | 'ntfy'; url: string; headers: Record<string, string>; body: string }
  | { sink: 'command'; argv: readonly string[]; stdin: string };

export function alertSummary(alert: Alert): string {
  const what = alert.incident
    ? `incident #${alert.incident.id} ${alert.incident.kind} ${alert.incident.state}: ${alert.incident.message}`
    : alert.event === 'start' ? 'started' : alert.exit_code === null ? alert.event : `exit ${alert.exit_code}`;
  return `deadman ${alert.name} on ${alert.host}: ${alert.event} · ${what}`;
}

export function buildAlertRequests(alert: Alert, sinks: AlertSinks): AlertRequest[] {
  const json = JSON.stringify(alert);
  const requests: AlertRequest[] = sinks.webhook.map((url) => ({ sink: 'webhook' as const, url, headers: { 'content-type': 'application/json' }, body: json }));
  if (sinks.healthchecks) requests.push({ sink: 'healthchecks', url: healthchecksUrl(sinks.healthchecks, alert), headers: { 'content-type': 'text/plain; charset=utf-8' }, body: alertSummary(alert) });
  if (sinks.ntfy) requests.push({ sink: 'ntfy', url: sinks.ntfy, headers: ntfyHeaders(alert), body: alertSummary(alert) });
  if (sinks.command?.length) requests.push({ sink: 'command', argv: sinks.command, stdin: json });
  return requests;
}

/** healthchecks.io's ping API: `<url>/start`, `<url>` for success, `<url>/<exit status>` or `/fail`. */
function healthchecksUrl(base: string, alert: Alert): string {
  const trimmed = base.replace(/\/+$/, '');
  switch (alert.event) {
    case 'start': return `${trimmed}/start`;
    case 'success': return trimmed;
    case 'fail': return alert.exit_code === null ? `${trimmed}/fail` : `${trimmed}/${alert.exit_code}`;
    case 'incident': return `${trimmed}/log`;
  }
}

function ntfyHeaders(alert: Alert): Record<string, string> {
  const urgent = alert.event === 'fail' || (alert.event === 'incident' && alert.incident?.state !== 'RESOLVED');
  return {
    'content-type': 'text/plain; charset=utf-8',
    title: `deadman ${alert.name}: ${alert.event}`,
    priority: urgent ? 'high' : 'default',
    tags: urgent ? 'warning' : 'white_check_mark',
  };
}

/**
 * At most one alert per run name and event in `minIntervalMs`; a failure and a success always go
 * out (they are rare and each one changes what a person should do). `lastSent` maps
 * `name/event` to wall-clock milliseconds.
 */
export function alertAllowed(lastSent: Readonly<Record<string, number>>, alert: Pick<Alert, 'name' | 'event'>, nowMs: number, minIntervalMs: number): boolean {
  if (alert.event === 'fail' || alert.event === 'success') return true;
  const previous = lastSent[alertKey(alert)];
  return previous === undefined || nowMs - previous >= minIntervalMs || nowMs < previous;
}

export function alertKey(alert: Pick<Alert, 'name' | 'event'>): string {
  return `${alert.name}/${alert.event}`;
}
