import { blankAlert, NEEDS_A_PERSON, type Alert, type AlertEvent } from './alert.ts';
import { signalErrorCode } from '../incident/error-codes.ts';
import { alreadySent, incidentIdentity, noteSent, type AlertLog } from './alert-log-rules.ts';

/**
 * Which alerts `deadman run` sends, decided from the run's own transitions and a clock: the
 * lifecycle as runitor pings it (start, then success or fail with the exit code and the
 * output's tail), and "a person is needed" — an incident entering AWAITING_APPROVAL (with the
 * commands that answer it) or ESCALATED (a stall, a halt, a refused marker, a spent budget, a
 * kill that did not help) — once per incident, then a reminder every `reminderMs` while it
 * still waits. `events` says which go out; `minIntervalMs` rate-limits repeats across runs
 * (alert-log-rules.ts). Pure: times are wall-clock milliseconds handed in, settings are read
 * per call so a reloaded config applies at the next decision.
 */

export interface PlannerSettings {
  events: readonly AlertEvent[];
  minIntervalMs: number;
  /** 0: no reminders. */
  reminderMs: number;
}

export interface AlertRun {
  name: string;
  host: string;
  /** The commands that answer incident `id` from a shell (with the run's --state-dir/--database when they are not the defaults). */
  answers(id: number): string[];
}

/** One incident transition as the run's records applied it. */
export interface IncidentTransition {
  incident: { id: number; kind: string; state: string; message: string };
  from: string;
  event: string;
  reason: string;
}

export interface RunEnd {
  exitCode: number;
  /** The stop signal deadman got (a deliberate stop): no lifecycle end is sent. */
  stoppedBy: string | null;
  outcome: string | null;
  reason: string | null;
  /** The run's stable error code (core/incident/error-codes.ts); null for a completion. */
  code: string | null;
  outputTail: readonly string[];
}

interface Waiting {
  alert: Alert;
  lastAt: number;
}

export class AlertPlanner {
  private log: AlertLog;
  private readonly waiting = new Map<string, Waiting>();

  /** `log`: what earlier runs of this name sent (the alert log), so a restart loop is rate-limited too. */
  constructor(
    private readonly run: AlertRun,
    log: AlertLog,
  ) {
    this.log = log;
  }

  started(nowMs: number, settings: PlannerSettings): Alert[] {
    return this.decide(this.alert('start', nowMs, {}), nowMs, settings);
  }

  ended(end: RunEnd, nowMs: number, settings: PlannerSettings): Alert[] {
    // The run is over: what still waits is no longer this process's to remind of.
    this.waiting.clear();
    if (end.stoppedBy !== null) return [];
    const event = end.exitCode === 0 ? 'success' : 'fail';
    return this.decide(
      this.alert(event, nowMs, {
        exit_code: end.exitCode,
        outcome: end.outcome,
        code: end.code,
        reason: end.reason,
        output_tail: [...end.outputTail],
      }),
      nowMs,
      settings,
    );
  }

  moved(transition: IncidentTransition, nowMs: number, settings: PlannerSettings): Alert[] {
    const { incident } = transition;
    const identity = incidentIdentity(incident);
    this.waiting.delete(identity);
    // A deny is a person's own answer: telling them it escalated would be noise.
    if (!NEEDS_A_PERSON.has(incident.state) || transition.event === 'denied') return [];
    const alert = this.alert('incident', nowMs, {
      incident: { ...incident, error_code: signalErrorCode(incident.kind) },
      code: signalErrorCode(incident.kind),
      reason: transition.reason,
      // An incident the store could not record cannot be answered: `deadman approve` looks it up there.
      commands: incident.state === 'AWAITING_APPROVAL' && incident.id >= 0 ? this.run.answers(incident.id) : [],
    });
    if (settings.events.includes('incident')) this.waiting.set(identity, { alert, lastAt: nowMs });
    return this.decide(alert, nowMs, settings);
  }

  /** The reminders due now, for incidents that still wait. */
  remind(nowMs: number, settings: PlannerSettings): Alert[] {
    if (settings.reminderMs === 0 || !settings.events.includes('incident')) return [];
    const due: Alert[] = [];
    for (const waiting of this.waiting.values()) {
      // A clock set back counts as due: a reminder early beats one never.
      if (nowMs - waiting.lastAt < settings.reminderMs && nowMs >= waiting.lastAt) continue;
      waiting.lastAt = nowMs;
      waiting.alert = { ...waiting.alert, at: isoAt(nowMs), reminder: waiting.alert.reminder + 1 };
      due.push(waiting.alert);
    }
    return due;
  }

  /** When `remind` has something next (wall ms), or null while nothing waits. */
  nextReminderAt(settings: PlannerSettings): number | null {
    if (settings.reminderMs === 0 || this.waiting.size === 0) return null;
    return Math.min(...[...this.waiting.values()].map((w) => w.lastAt + settings.reminderMs));
  }

  private decide(alert: Alert, nowMs: number, settings: PlannerSettings): Alert[] {
    if (!settings.events.includes(alert.event) || alreadySent(this.log, alert, nowMs, settings.minIntervalMs))
      return [];
    this.log = noteSent(this.log, alert, nowMs, null);
    return [alert];
  }

  private alert(event: AlertEvent, nowMs: number, detail: Partial<Alert>): Alert {
    return {
      ...blankAlert({ event, name: this.run.name, host: this.run.host, at: isoAt(nowMs), source: 'run' }),
      ...detail,
    };
  }
}

function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}
