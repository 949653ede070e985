import { isOwnerAlive } from './process-identity.ts';

/**
 * The live half of "is this run still going" (core/status/run-presence.ts): whether the deadman
 * that recorded the run row is still that process. Rows written before the start time was
 * recorded are checked by pid alone, which errs on the side of "running".
 */
export function isRunOwnerAlive(run: { pid: number; pid_start_time?: number | null }): boolean {
  return isOwnerAlive({ pid: run.pid, startTime: run.pid_start_time ?? null });
}
