import { readFileSync } from 'node:fs';
import { parseProcStat, type ProcStat } from '../../core/process/proc-stat.ts';
import { isZombie } from '../../core/process/owned-tree.ts';

/**
 * Identity of one process: pid + start time. A pid alone can be reused by an unrelated
 * process; the start time cannot repeat for the same pid while the system is up.
 */
export function readProcStat(pid: number): ProcStat | null {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** True when the process exists (with this start time, when given) and is not a zombie (`kill -0` says yes to zombies). */
export function isSameProcessAlive(pid: number, startTime?: number): boolean {
  const stat = readProcStat(pid);
  return stat !== null && (startTime === undefined || stat.startTime === startTime) && !isZombie(stat);
}

/** This process's own start time, recorded as the owner of revive markers. */
export function ownStartTime(): number | null {
  return readProcStat(process.pid)?.startTime ?? null;
}
