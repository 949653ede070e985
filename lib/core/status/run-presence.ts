import { PASS_OUTCOMES } from '../signals/registry.ts';

/**
 * Whether a recorded run is still going, decided the same way by every reader (`status`,
 * `metrics`, `health`, `approve`/`deny`) and by the next run of its name: from a live check of
 * the deadman that wrote the row (pid + start time, io/process/run-owner.ts), never from the
 * last row alone. A deadman that died (SIGKILL, the watchdog's abort, OOM, power loss) leaves
 * a row with no end: `lost`. Pure: the live check comes in as a boolean.
 */

export interface RecordedRunEnd {
  ended_at: number | null;
  outcome: string | null;
  signal: string | null;
  exit_code?: number | null;
}

/** The exit code a pass records before the run goes on (EX_TEMPFAIL); anything else there is what the run came to. */
export const PASS_EXIT_CODE = 75;

/**
 * A latest row whose pass ended for the same deadman to go on (an outcome with a next pass in its
 * kind's row: a usage wait, a resume, a respawn; the row holds 75): only the live check tells a
 * wait from a death.
 */
export function betweenPasses(run: RecordedRunEnd): boolean {
  return run.ended_at !== null && PASS_OUTCOMES.includes(run.outcome ?? '') && run.exit_code === PASS_EXIT_CODE && !LOST_SIGNALS.has(run.signal ?? '');
}

/** `running`: its deadman is alive; `ended`: it recorded its end; `lost`: its deadman died without one. */
export type RunPresence = 'running' | 'ended' | 'lost';

/**
 * What the next run (or a reader) records for a run whose deadman died without recording an
 * end: the outcome it had recorded (a stall), else `lost`; and in `signal`, `watchdog` after a
 * recorded stall (systemd's abort, most likely), else `unknown`. The signal says it was lost.
 */
export function lostRunEnd(recordedOutcome: string | null): { outcome: string; signal: string } {
  return recordedOutcome === 'stalled' ? { outcome: 'stalled', signal: 'watchdog' } : { outcome: recordedOutcome ?? 'lost', signal: 'unknown' };
}

const LOST_SIGNALS: ReadonlySet<string> = new Set(['watchdog', 'unknown']);

export function runPresence(run: RecordedRunEnd, ownerAlive: boolean): RunPresence {
  if (run.ended_at !== null && !betweenPasses(run)) return LOST_SIGNALS.has(run.signal ?? '') ? 'lost' : 'ended';
  return ownerAlive ? 'running' : 'lost';
}

/** Why a lost run's open incidents were abandoned, for their timeline. */
export function lostRunReason(run: { id: number; pid: number }): string {
  return `deadman (pid ${run.pid}) of run #${run.id} is gone without recording an end (killed, crashed or the host went down)`;
}
