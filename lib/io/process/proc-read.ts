import { existsSync, readlinkSync, statSync } from 'node:fs';
import { processKey, type ProcessInfo } from '../../core/process/process-info.ts';
import type { ProcessIdentity } from '../../core/process/owned-tree.ts';
import { socketInode } from '../../core/process/proc-net.ts';
import { readProcStat } from './process-identity.ts';
import { namesIn, readOrNull } from '../files/quiet-reads.ts';

/**
 * Reads of one Linux process under /proc. A process may exit between any two reads: every
 * function here treats a vanished file as "gone" (null or empty), never as an error.
 */

/** A process as read from /proc, with its socket inodes still to be matched against /proc/net. */
export interface LinuxProcess {
  info: ProcessInfo;
  socketInodes: string[];
  /** False when it provably was not scheduled since the last read: all but stat is as it was. */
  ran: boolean;
}

/** Re-read the command line and fds of a known process that runs at least this often. */
const DETAILS_REFRESH_MS = 10_000;

interface Details {
  comm: string;
  cmdline: string[];
  fdCount: number;
  socketInodes: string[];
  readAt: number;
  /** The process's CPU ticks when they were read: one that ran since may have swapped an fd for a socket. */
  cpuTicks: number;
}

/** The last read of one process. */
interface LastRead {
  info: ProcessInfo;
  details: Details;
  /** /proc/<pid>/schedstat, read before the rest; null where it says nothing (multi-threaded, no scheduler stats). */
  schedstat: string | null;
  /** Its children at the last read that found it running (null: not read yet). */
  children: number[] | null;
  ran: boolean;
  singleThreaded: boolean;
}

/**
 * Reads processes poll after poll. A process that was not scheduled at all since the last read
 * (single-threaded, asleep, the same /proc/<pid>/schedstat: its count of times run included)
 * made no system call since: its stat, io counters, fds, command line and children are as they
 * were. Only its parent may have changed, by exiting; so a process whose parent stayed (was
 * itself not scheduled, or is deadman or init) costs one small read, the others also a stat:
 * an idle tree of 1,000 processes costs about 1,000 reads a poll. For one that ran, io
 * counters and children are read again; the command line and the socket fds rarely change, so
 * they are read again only after an exec (the name changed), when the number of open fds
 * changed (the size of /proc/<pid>/fd counts them on Linux 6.2+; where it reads 0 they are
 * read every poll), when it used CPU since (closing a file and opening a socket keeps the
 * count: a starting server was missed so and killed as hung), or after DETAILS_REFRESH_MS.
 * Listing and resolving every fd is the most expensive part of a poll.
 */
export class LinuxProcessReader {
  /** By pid: the last read of each process alive at the last poll. */
  #last = new Map<number, LastRead>();

  constructor(private readonly monotonic: () => number) {}

  /** `parentStayed(ppid)`: the parent is provably the same process as at the last read. */
  read(pid: number, parentStayed: (ppid: number) => boolean = () => false): LinuxProcess | null {
    const known = this.#last.get(pid);
    const quick =
      known?.singleThreaded && known.schedstat !== null && known.info.state !== 'R' && parentStayed(known.info.ppid)
        ? schedulerStats(pid)
        : undefined;
    const last =
      known && quick !== undefined && quick === known.schedstat
        ? { ...known, ran: false }
        : this.#readWhole(pid, known, quick);
    if (!last) {
      this.#last.delete(pid);
      return null;
    }
    this.#last.set(pid, last);
    return { info: { ...last.info }, socketInodes: last.details.socketInodes, ran: last.ran };
  }

  /** Children of a process this poll read: as they were when it did not run since, else read now. */
  children(pid: number): number[] {
    const last = this.#last.get(pid);
    if (!last) return readThreadChildren(pid);
    if (last.ran || last.children === null) last.children = readThreadChildren(pid, last.singleThreaded);
    return last.children;
  }

  /** Forgets the processes not in `alive` (gone since). */
  keepOnly(alive: Iterable<ProcessIdentity>): void {
    const keep = new Set([...alive].map(processKey));
    for (const [pid, last] of this.#last) if (!keep.has(processKey(last.info))) this.#last.delete(pid);
  }

  /**
   * stat and what changed with it. schedstat is read before stat, so a run after it shows at
   * the next poll. It is read for every process, first seen or multi-threaded too, for its
   * run-queue wait; only a single-threaded one's says whether the process ran since (another
   * thread may have run while the main one did not).
   */
  #readWhole(pid: number, known: LastRead | undefined, schedstatFirst: string | null | undefined): LastRead | null {
    const schedstat = schedstatFirst !== undefined ? schedstatFirst : schedulerStats(pid);
    const stat = readProcStat(pid);
    if (!stat) return null;
    const { cpuTicks, reapedCpuTicks, startTime, state, ppid, pgid, sid, comm } = stat;
    const same = known !== undefined && known.info.startTime === startTime && known.info.comm === comm;
    const singleThreaded = stat.threads === 1;
    const idle =
      same &&
      singleThreaded &&
      state !== 'R' &&
      schedstat !== null &&
      known.schedstat === schedstat &&
      known.info.cpuTicks === cpuTicks;
    const details = idle ? known.details : this.#detailsOf(pid, same ? known.details : undefined, comm, cpuTicks);
    return {
      info: {
        pid,
        ppid,
        pgid,
        sid,
        startTime,
        state,
        comm,
        cmdline: details.cmdline,
        cpuTicks,
        reapedCpuTicks,
        ...runQueueWait(schedstat),
        ioBytes: idle ? known.info.ioBytes : readIoBytes(pid),
        listening: false,
      },
      details,
      // An exec caught midway shows the new comm with no arguments yet: never kept, so the next poll reads it whole.
      schedstat: singleThreaded && details.cmdline.length > 0 ? schedstat : null,
      children: idle ? known.children : null,
      ran: !idle,
      singleThreaded,
    };
  }

  #detailsOf(pid: number, known: Details | undefined, comm: string, cpuTicks: number): Details {
    const now = this.monotonic();
    const fdCount = countFds(pid);
    if (
      known &&
      known.comm === comm &&
      known.cmdline.length > 0 &&
      fdCount > 0 &&
      known.fdCount === fdCount &&
      known.cpuTicks === cpuTicks &&
      now - known.readAt < DETAILS_REFRESH_MS
    )
      return known;
    return { comm, cmdline: readCmdline(pid), fdCount, socketInodes: readSocketInodes(pid), readAt: now, cpuTicks };
  }
}

/**
 * The run-queue wait (ms) in schedstat's second field, time the main thread was runnable but
 * waited for a CPU, and the third, how many times it was run. A starved process works at the pace the host allows: that wait counts
 * toward the activity floors like CPU time (tree-activity.ts). Absent where unknown.
 */
function runQueueWait(schedstat: string | null): { waitMs?: number; runs?: number } {
  const [, waitNs, runs] = schedstat === null ? [] : schedstat.split(' ').map(Number);
  return waitNs === undefined || runs === undefined || !Number.isFinite(waitNs + runs)
    ? {}
    : { waitMs: waitNs / 1e6, runs };
}

/**
 * /proc/<pid>/schedstat: time on CPU (ns), time waiting for one, times run. Null where the
 * kernel keeps no scheduler statistics (it then prints zeros: a live process has run once).
 */
function schedulerStats(pid: number): string | null {
  const text = readOrNull(`/proc/${pid}/schedstat`);
  return text === null || text.trimEnd().endsWith(' 0') ? null : text;
}

function countFds(pid: number): number {
  try {
    return statSync(`/proc/${pid}/fd`).size;
  } catch {
    return 0;
  }
}

function readCmdline(pid: number): string[] {
  const raw = readOrNull(`/proc/${pid}/cmdline`);
  if (!raw) return [];
  const parts = raw.split('\0');
  if (parts.at(-1) === '') parts.pop();
  return parts;
}

/**
 * rchar + wchar: bytes moved by read()/write() on any fd, pipes and sockets included, reaped
 * children's too (read_bytes/write_bytes count storage only; docs/design.md says why).
 */
function readIoBytes(pid: number): number | null {
  const text = readOrNull(`/proc/${pid}/io`);
  if (!text) return null;
  const rchar = /^rchar: (\d+)$/m.exec(text)?.[1];
  const wchar = /^wchar: (\d+)$/m.exec(text)?.[1];
  return rchar !== undefined && wchar !== undefined ? Number(rchar) + Number(wchar) : null;
}

function readSocketInodes(pid: number): string[] {
  const inodes: string[] = [];
  for (const fd of namesIn(`/proc/${pid}/fd`)) {
    try {
      const inode = socketInode(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (inode) inodes.push(inode);
    } catch {
      // fd closed since the listing
    }
  }
  return inodes;
}

/** Whether this kernel has `/proc/<pid>/task/<tid>/children` (CONFIG_PROC_CHILDREN). */
export function threadChildrenAvailable(): boolean {
  return existsSync(`/proc/self/task/${process.pid}/children`);
}

/**
 * Children of every thread: a child belongs to the thread that forked it, not to the main one.
 * A single-threaded process has one `children` file, at its own pid: no listing needed.
 */
export function readThreadChildren(pid: number, singleThreaded = false): number[] {
  const children: number[] = [];
  for (const tid of singleThreaded ? [String(pid)] : namesIn(`/proc/${pid}/task`)) {
    const text = readOrNull(`/proc/${pid}/task/${tid}/children`);
    if (text) for (const child of text.trim().split(' ')) if (child) children.push(Number(child));
  }
  return children;
}

/** Every pid on the host: the fallback walk's process table (cost grows with the host). */
export function listAllPids(): number[] {
  return namesIn('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}
