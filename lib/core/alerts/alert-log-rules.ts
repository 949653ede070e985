import type { Alert } from './alert.ts';

/**
 * What "the same alert" means, and when it must not go out again. The alert log (one per run
 * name, in the state directory) maps each key to when it last went out and from which systemd
 * invocation; `deadman run` writes what it delivered, `deadman notify` (OnFailure=) reads it so
 * it does not repeat what the run already sent. Pure; times are wall-clock milliseconds, because
 * the log is shared by processes (a monotonic clock starts over in each).
 */

export interface SentEntry {
  at: number;
  /** $INVOCATION_ID of the unit run that sent it; null outside systemd. */
  invocation: string | null;
}

export type AlertLog = Readonly<Record<string, SentEntry>>;

export function alertKey(alert: Pick<Alert, 'event' | 'exit_code' | 'incident'>): string {
  switch (alert.event) {
    case 'start':
    case 'success':
      return alert.event;
    case 'fail':
      return `fail/${alert.exit_code ?? 'unknown'}`;
    case 'incident':
      return alert.incident ? `incident/${incidentIdentity(alert.incident)}/${alert.incident.state}` : 'incident';
  }
}

/** An incident's id; its kind while the store could not record it (id -1), so two such incidents of different kinds stay apart. */
export function incidentIdentity(incident: { id: number; kind: string }): string {
  return incident.id >= 0 ? String(incident.id) : incident.kind;
}

/**
 * True when `alert` must not go out now: it is what systemd invocation `invocation` already
 * sent (OnFailure= after a run that could send), or the same key went out less than
 * `minIntervalMs` ago. A success always goes out (it keeps a ping check up, and is rare news
 * after a failure); a success also forgets the fails before it (see noteSent), so the next fail
 * goes out. A clock set back does not silence alerts.
 */
export function alreadySent(
  log: AlertLog,
  alert: Alert,
  nowMs: number,
  minIntervalMs: number,
  invocation: string | null = null,
): boolean {
  const entry = log[alertKey(alert)];
  if (entry === undefined) return false;
  if (invocation !== null && entry.invocation === invocation) return true;
  if (alert.event === 'success') return false;
  return nowMs >= entry.at && nowMs - entry.at < minIntervalMs;
}

/** The log after `alert` went out. */
export function noteSent(
  log: AlertLog,
  alert: Alert,
  nowMs: number,
  invocation: string | null,
): Record<string, SentEntry> {
  const kept =
    alert.event === 'success'
      ? Object.fromEntries(Object.entries(log).filter(([key]) => !key.startsWith('fail/')))
      : { ...log };
  return { ...kept, [alertKey(alert)]: { at: nowMs, invocation } };
}
