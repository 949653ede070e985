import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { parseProcStat } from '../../lib/core/process/proc-stat.ts';

/** What the benches read of a running process under /proc (Linux). */

/** utime + stime, and cutime + cstime (children waited for), in clock ticks. */
export function cpuTicks(pid: number | 'self'): { own: number; reaped: number } {
  const stat = parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  if (!stat) throw new Error(`cannot parse /proc/${pid}/stat`);
  return { own: stat.cpuTicks, reaped: stat.reapedCpuTicks ?? 0 };
}

/**
 * CPU time of all its threads in ms, to the nanosecond: the first field of each
 * /proc/<pid>/task/<tid>/schedstat. utime and stime are charged a whole 10 ms tick to whichever
 * task runs when the tick fires, and a process that wakes on a timer tends to run just then: an
 * idle resident read 2-3x its CPU so. 0 once it exited; a thread that ended is not counted.
 */
export function runtimeMs(pid: number): number {
  try {
    return (
      readdirSync(`/proc/${pid}/task`).reduce(
        (sum, tid) => sum + Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]),
        0,
      ) / 1e6
    );
  } catch {
    return 0;
  }
}

/**
 * A line of /proc/<pid>/status in kB (VmRSS now, VmHWM its peak, RssAnon the part no other
 * process shares: the rest is mostly the Node binary's pages); 0 once it exited.
 */
export function statusKb(pid: number, field: 'VmRSS' | 'VmHWM' | 'RssAnon'): number {
  try {
    return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/**
 * A line of /proc/<pid>/smaps_rollup in kB: Pss is the process's fair share of its pages (a
 * page shared by n processes counts 1/n), which is what one more unit costs a host whose other
 * units run the same Node binary; 0 once it exited.
 */
export function smapsRollupKb(pid: number, field: 'Pss' | 'Pss_Anon'): number {
  try {
    return Number(
      new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0,
    );
  } catch {
    return 0;
  }
}

export function clockTicksPerSecond(): number {
  const ticks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout);
  return Number.isInteger(ticks) && ticks > 0 ? ticks : 100;
}
