/**
 * What the process observer makes of /proc or `ps`: one process per poll, and one poll of the
 * owned tree. Plain data only.
 */

/** One process as seen by one poll. `startTime` (clock ticks since boot on Linux) + pid is identity. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  startTime: number;
  /** Kernel state letter: R running, S sleeping, D disk wait, Z zombie, T stopped, … */
  state: string;
  comm: string;
  cmdline: string[];
  /** utime + stime in clock ticks. */
  cpuTicks: number;
  /** cutime + cstime: CPU of children it reaped (Linux), so their work is not lost when they exit. */
  reapedCpuTicks?: number;
  /**
   * Time (ms) its main thread waited in the run queue for a CPU, so far (Linux's
   * /proc/<pid>/schedstat); absent where unknown (macOS `ps` has no such column).
   */
  waitMs?: number;
  /** How many times its main thread was run so far (schedstat's third field), with `waitMs`. */
  runs?: number;
  /** rchar + wchar from /proc/<pid>/io (reaped children's included), or null when unreadable (macOS, other users). */
  ioBytes: number | null;
  /** Holds a listening TCP/UDP/unix socket: a server, never "hung". */
  listening: boolean;
}

export interface Observation {
  /** Monotonic milliseconds of the poll. */
  at: number;
  /** The supervised child (the root of the owned tree). */
  rootPid: number;
  /** Every owned process found, the root included; zombies excluded. */
  processes: ProcessInfo[];
  /** CPU time (ms) of the unit's cgroup minus deadman's own, when the run has one. */
  cgroupCpuMs?: number | null;
  /**
   * How a process's `startTime` maps onto the poll's clock (Linux: boot at `bootAt` monotonic
   * ms, `ticksPerSecond` ticks a second), so a process's birth can be put before or after an
   * agent's event; absent where start times are not ticks since boot.
   */
  startClock?: { bootAt: number; ticksPerSecond: number };
}

/**
 * When the process was born, on the poll's clock, at the latest: start times count whole ticks
 * (10 ms), so the end of its tick — a process started just after an event it follows is not
 * placed before it. Where the observer cannot place start times, when it was first seen.
 */
export function bornAt(p: Pick<ProcessInfo, 'startTime'>, observation: Pick<Observation, 'at' | 'startClock'>): number {
  const clock = observation.startClock;
  if (!clock) return observation.at;
  return Math.min(observation.at, clock.bootAt + ((p.startTime + 1) * 1000) / clock.ticksPerSecond);
}

export function processKey(p: Pick<ProcessInfo, 'pid' | 'startTime'>): string {
  return `${p.pid}@${p.startTime}`;
}
