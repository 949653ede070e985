import type { ProcessInfo } from './process-info.ts';
import type { Seed } from './owned-tree.ts';

/**
 * Parser for macOS `ps -A -o pid=,ppid=,pgid=,lstart=,time=,state=,command=` (run with
 * LC_ALL=C so day and month names are English). What macOS cannot tell us this way:
 * - the session id: `sid` is set to the pgid, so the hung detector climbs within process
 *   groups only (agents start each tool in a new session, which is also a new group);
 * - I/O counters: `ioBytes` is null, so only CPU time and the set of processes show activity;
 * - argv boundaries: `command` is one string, split on spaces (an argument with a space in it
 *   is cut in two; the joined text, which `ignore` patterns match, is unchanged).
 * `lstart` has one-second resolution; as the start time it makes pid + start time an identity.
 */

export const PS_COLUMNS = 'pid=,ppid=,pgid=,lstart=,time=,state=,command=';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const TICKS_PER_SECOND = 100;

const ROW =
  /^\s*(\d+)\s+(\d+)\s+(\d+)\s+[A-Z][a-z]{2}\s+([A-Z][a-z]{2})\s+(\d{1,2})\s+(\d{1,2}):(\d{2}):(\d{2})\s+(\d{4})\s+(\S+)\s+(\S+)(?:\s+(.*))?$/;

/** One row per well-formed line; malformed lines (a header, truncation) are skipped. */
export function parsePsOutput(text: string): ProcessInfo[] {
  return text.split('\n').flatMap((line) => parsePsLine(line) ?? []);
}

export function parsePsLine(line: string): ProcessInfo | null {
  const m = ROW.exec(line);
  if (!m) return null;
  const [, pid, ppid, pgid, month, day, hour, minute, second, year, time, state, command = ''] = m;
  const startTime = lstartToEpochSeconds(
    month!,
    Number(day),
    Number(hour),
    Number(minute),
    Number(second),
    Number(year),
  );
  const cpuTicks = cpuTimeToTicks(time!);
  if (startTime === null || cpuTicks === null) return null;
  const cmdline = command.trim().split(/\s+/).filter(Boolean);
  return {
    pid: Number(pid),
    ppid: Number(ppid),
    pgid: Number(pgid),
    sid: Number(pgid),
    startTime,
    state: state!.charAt(0),
    comm: (cmdline[0] ?? '').split('/').pop() ?? '',
    cmdline,
    cpuTicks,
    ioBytes: null,
    listening: false,
  };
}

/**
 * The environment listing, `ps -E -A -ww -o pid=,uid=,lstart=,command=`: macOS appends each
 * process's environment as it was at exec to `command`, and shows it only for the caller's own
 * processes (root sees all). Ownership outside a cgroup is the run tag there (see
 * io/process/tagged-processes.ts for the Linux side).
 */
export const PS_ENV_ARGS = ['-E', '-A', '-ww', '-o', 'pid=,uid=,lstart=,command='] as const;

const ENV_ROW =
  /^\s*(\d+)\s+(\d+)\s+[A-Z][a-z]{2}\s+([A-Z][a-z]{2})\s+(\d{1,2})\s+(\d{1,2}):(\d{2}):(\d{2})\s+(\d{4})\s+(.*)$/;

/**
 * Seeds of the processes in that listing that carry `needle` (`DEADMAN_RUN_TAG=<tag>`) as one
 * whole word, run as `uid` and started no earlier than `notBefore` (epoch seconds; lstart has
 * one-second resolution, so a process started in the root's second counts).
 */
export function taggedInPsListing(text: string, needle: string, uid: number, notBefore: number): Seed[] {
  return text.split('\n').flatMap((line) => {
    const m = ENV_ROW.exec(line);
    if (!m || Number(m[2]) !== uid || !m[9]!.split(/\s+/).includes(needle)) return [];
    const [, pid, , month, day, hour, minute, second, year] = m;
    const startTime = lstartToEpochSeconds(
      month!,
      Number(day),
      Number(hour),
      Number(minute),
      Number(second),
      Number(year),
    );
    return startTime !== null && startTime >= notBefore ? [{ pid: Number(pid), startTime }] : [];
  });
}

/** `Tue Dec  1 08:39:28 2026`, local time as ps prints it, to seconds since the epoch. */
function lstartToEpochSeconds(
  month: string,
  day: number,
  hour: number,
  minute: number,
  second: number,
  year: number,
): number | null {
  const monthIndex = MONTHS.indexOf(month);
  if (monthIndex < 0 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null;
  return Math.floor(new Date(year, monthIndex, day, hour, minute, second).getTime() / 1000);
}

/** `0:01.23`, `12:34.56`, `1:02:03` or `1-02:03:04` ([days-][hours:]minutes:seconds) to ticks at 100/s. */
export function cpuTimeToTicks(text: string): number | null {
  const m = /^(?:(\d+)-)?(?:(\d+):)?(\d+):(\d+(?:\.\d+)?)$/.exec(text);
  if (!m) return null;
  const [, days = '0', hours = '0', minutes, seconds] = m;
  const total = ((Number(days) * 24 + Number(hours)) * 60 + Number(minutes)) * 60 + Number(seconds);
  return Math.round(total * TICKS_PER_SECOND);
}

/** Pids from `lsof -F p` output (`p<pid>` lines; other field lines ignored). */
export function parseLsofPids(text: string): number[] {
  return text.split('\n').flatMap((line) => (/^p\d+$/.test(line) ? [Number(line.slice(1))] : []));
}
