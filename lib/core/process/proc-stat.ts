/**
 * Parser for Linux `/proc/<pid>/stat`. The command name (field 2) is in parentheses and may
 * itself contain spaces and parentheses, so fields are counted from the last ')'.
 */
export interface ProcStat {
  pid: number;
  comm: string;
  state: string;
  ppid: number;
  pgid: number;
  sid: number;
  /** utime + stime, clock ticks. */
  cpuTicks: number;
  /** cutime + cstime: children waited for (Linux only). */
  reapedCpuTicks?: number;
  /** Field 22: start time in clock ticks since boot. With the pid, a process's identity. */
  startTime: number;
  /** Field 20: number of threads (Linux only). */
  threads?: number;
}

export function parseProcStat(text: string): ProcStat | null {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const rest = text
    .slice(close + 2)
    .trim()
    .split(' ');
  // rest[0] is field 3 (state); field N is rest[N - 3].
  const field = (n: number) => Number(rest[n - 3]);
  const parsed: ProcStat = {
    pid: Number(text.slice(0, open).trim()),
    comm: text.slice(open + 1, close),
    state: rest[0] ?? '?',
    ppid: field(4),
    pgid: field(5),
    sid: field(6),
    cpuTicks: field(14) + field(15),
    reapedCpuTicks: field(16) + field(17),
    startTime: field(22),
    threads: field(20),
  };
  return Number.isInteger(parsed.pid) && Number.isFinite(parsed.startTime) ? parsed : null;
}

/** Linux's clock tick (USER_HZ, 100 on every Linux deadman runs on), in ms. */
const TICK_MS = 10;

/**
 * The run's CPU in its unit cgroup, in ms: the cgroup's total less what deadman and its
 * helpers used and reaped (the first stat is deadman's, the rest its helpers'; a helper gone
 * between the listing and the read is null and counts for nothing, its CPU already reaped by
 * its parent). Never below zero: the counters are read at slightly different moments.
 */
export function cpuOfRunMs(cgroupTotalMs: number, deadmanAndHelpers: ReadonlyArray<ProcStat | null>): number {
  const ownTicks = deadmanAndHelpers.reduce(
    (sum, stat) => sum + (stat ? stat.cpuTicks + (stat.reapedCpuTicks ?? 0) : 0),
    0,
  );
  return Math.max(0, cgroupTotalMs - ownTicks * TICK_MS);
}
