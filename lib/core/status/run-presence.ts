import { NEXT_PASS_OUTCOMES } from '../signals/signal-row.ts';

/** The outcomes after which another pass follows (the run is not over). */
const PASS_OUTCOMES: readonly string[] = Object.values(NEXT_PASS_OUTCOMES);

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
  /** 1: closed for a deadman that died without recording an end (core/status/lost-run-end.ts). Missing before migration 6. */
  lost?: number | null;
}

/** The exit code a pass records before the run goes on (EX_TEMPFAIL); anything else there is what the run came to. */
export const PASS_EXIT_CODE = 75;

/**
 * A latest row whose pass ended for the same deadman to go on (an outcome with a next pass in its
 * kind's row: a usage wait, a resume, a respawn; the row holds 75): only the live check tells a
 * wait from a death.
 */
export function betweenPasses(run: RecordedRunEnd): boolean {
  return (
    run.ended_at !== null &&
    PASS_OUTCOMES.includes(run.outcome ?? '') &&
    run.exit_code === PASS_EXIT_CODE &&
    !closedAsLost(run)
  );
}

/** `running`: its deadman is alive; `ended`: it recorded its end; `lost`: its deadman died without one. */
export type RunPresence = 'running' | 'ended' | 'lost';

/**
 * Whether the row was closed for a deadman that died without recording an end. Rows closed
 * before migration 6 said so only in `signal`, `unknown` or `watchdog`, which a deadman's own
 * end never records: a reader of a database no run has migrated yet still reads them as lost.
 */
export function closedAsLost(run: Pick<RecordedRunEnd, 'signal' | 'lost'>): boolean {
  return run.lost === undefined || run.lost === null ? LEGACY_LOST_SIGNALS.has(run.signal ?? '') : run.lost === 1;
}

const LEGACY_LOST_SIGNALS: ReadonlySet<string> = new Set(['watchdog', 'unknown']);

export function runPresence(run: RecordedRunEnd, ownerAlive: boolean): RunPresence {
  if (run.ended_at !== null && !betweenPasses(run)) return closedAsLost(run) ? 'lost' : 'ended';
  return ownerAlive ? 'running' : 'lost';
}

/** Why a lost run's open incidents were abandoned, for their timeline. */
export function lostRunReason(run: { id: number; pid: number }): string {
  return `deadman (pid ${run.pid}) of run #${run.id} is gone without recording an end (killed, crashed or the host went down)`;
}
