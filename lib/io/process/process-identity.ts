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

/** /proc start times are in USER_HZ ticks since boot; USER_HZ is 100 on every Linux ABI. */
export const USER_HZ = 100;

/**
 * Where boot lies on the `monotonic` clock, so /proc start times land on it: /proc/uptime is
 * the time since boot on the clock start times count in. Null without /proc.
 */
export function readStartClock(monotonic: () => number): { bootAt: number; ticksPerSecond: number } | null {
  try {
    const uptimeMs = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]) * 1000;
    return Number.isFinite(uptimeMs) ? { bootAt: monotonic() - uptimeMs, ticksPerSecond: USER_HZ } : null;
  } catch {
    return null;
  }
}
