import { blankAlert, type Alert, type AlertEvent } from '../alerts/alert.ts';
import { needsAttention, type JobVerdict, type VerdictState } from './evidence.ts';

/**
 * Which alerts `deadman check` sends: one per change of a job's state — dead, unknown, alive
 * again — measured against the state last alerted for that job (kept in the state directory
 * by io/alerts/job-alert-states.ts), never against the last check: a check whose alert did not
 * go out leaves the record alone, so the next check sends it, and the same state is never sent
 * twice however often the timer runs. A job never alerted counts as alive, so a job alive from
 * its first check is silent. Dead and unknown go out as a `fail` (when `[notify] events` has
 * it); alive again as a `success`, which follows every alerted fail. Pure: the time is handed in.
 */

export interface AlertedState {
  state: VerdictState;
  /** Wall-clock ms the alert went out. */
  at: number;
}

export type AlertedStates = Readonly<Record<string, AlertedState>>;

export interface JobStateAlert {
  job: string;
  state: VerdictState;
  alert: Alert;
}

export function jobStateAlerts(
  verdicts: readonly JobVerdict[],
  alerted: AlertedStates,
  host: string,
  nowMs: number,
  events: readonly AlertEvent[],
): JobStateAlert[] {
  const due: JobStateAlert[] = [];
  for (const result of verdicts) {
    const before = alerted[result.job]?.state ?? 'alive';
    if (result.verdict === before) continue;
    const event = result.verdict === 'alive' ? 'success' : 'fail';
    if (event === 'fail' && !events.includes('fail')) continue;
    const reason =
      result.verdict === 'alive'
        ? `alive again (was ${before})`
        : result.claims
            .filter(needsAttention)
            .map((c) => c.reason)
            .join('; ');
    const alert: Alert = {
      ...blankAlert({ event, name: result.job, host, at: new Date(nowMs).toISOString(), source: 'check' }),
      outcome: result.verdict,
      reason,
    };
    due.push({ job: result.job, state: result.verdict, alert });
  }
  return due;
}

/** The record after `job`'s alert of `state` went out; alive again forgets the job. */
export function noteAlerted(
  alerted: AlertedStates,
  job: string,
  state: VerdictState,
  nowMs: number,
): Record<string, AlertedState> {
  const others = Object.fromEntries(Object.entries(alerted).filter(([name]) => name !== job));
  return state === 'alive' ? others : { ...others, [job]: { state, at: nowMs } };
}
