import { readFileSync } from 'node:fs';
import { parseProcStat, type ProcStat } from '../../core/process/proc-stat.ts';
import { isZombie } from '../../core/process/owned-tree.ts';
import type { MarkerOwner } from '../../core/revive/marker.ts';

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
  return (
    stat !== null &&
    (startTime === undefined || stat.startTime - ownBoottimeOffsetTicks() === startTime) &&
    !isZombie(stat)
  );
}

/**
 * This process's own start time, recorded as the owner of runs and revive markers (and compared
 * by isSameProcessAlive): on the boot clock of the host, not of this process's time namespace.
 * /proc shows start times shifted by the reader's boottime offset (`unshare --time --boottime`,
 * some container runtimes), so a deadman in such a namespace recorded a start time no reader
 * outside ever saw again, and every reader marked its live run lost (issue 38).
 */
export function ownStartTime(): number | null {
  const stat = readProcStat(process.pid);
  return stat === null ? null : stat.startTime - ownBoottimeOffsetTicks();
}

/** How far this process's time namespace shifts the boot clock, in /proc start-time ticks; 0 outside one (or without /proc). */
function ownBoottimeOffsetTicks(): number {
  let text: string;
  try {
    text = readFileSync('/proc/self/timens_offsets', 'utf8');
  } catch {
    return 0;
  }
  const [seconds, nanoseconds] = /^boottime\s+(-?\d+)\s+(\d+)/m.exec(text)?.slice(1).map(Number) ?? [0, 0];
  return Math.round((seconds! + nanoseconds! / 1e9) * USER_HZ);
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

export function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * True while the owner (of a marker, of a run row) still runs. With a start time the check
 * survives pid reuse; without one (not Linux) a live pid is taken as the owner, which errs on
 * the side of not reviving.
 */
export function isOwnerAlive(owner: MarkerOwner | null): boolean {
  if (owner === null) return false;
  if (owner.startTime !== null) return isSameProcessAlive(owner.pid, owner.startTime);
  return isPidAlive(owner.pid);
}
