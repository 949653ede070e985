import { existsSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { processKey, type ProcessInfo } from '../../core/process/process-info.ts';
import type { ProcessIdentity } from '../../core/process/owned-tree.ts';
import { socketInode } from '../../core/process/proc-net.ts';
import { readProcStat } from './process-identity.ts';

/**
 * Reads of one Linux process under /proc. A process may exit between any two reads: every
 * function here treats a vanished file as "gone" (null or empty), never as an error.
 */

/** A process as read from /proc, with its socket inodes still to be matched against /proc/net. */
export interface LinuxProcess {
  info: ProcessInfo;
  socketInodes: string[];
}

/** Re-read the command line and fds of a known process at least this often. */
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

/**
 * Reads processes poll after poll. stat and io change all the time and are read every poll;
 * the command line and the socket fds rarely change, so they are read again only after an
 * exec (the name changed), when the number of open fds changed (the size of /proc/<pid>/fd
 * counts them on Linux 6.2+; where it reads 0 they are read every poll), when it ran since
 * (closing a file and opening a socket keeps the count: a starting server was missed so and
 * killed as hung), or after DETAILS_REFRESH_MS. An idle process costs no fd walk. Listing and resolving every fd is the most expensive part of a poll.
 */
export class LinuxProcessReader {
  #details = new Map<string, Details>();

  constructor(private readonly monotonic: () => number) {}

  read(pid: number): LinuxProcess | null {
    const stat = readProcStat(pid);
    if (!stat) return null;
    const { cpuTicks, reapedCpuTicks, startTime, state, ppid, pgid, sid, comm } = stat;
    const details = this.#detailsOf(pid, processKey(stat), comm, cpuTicks);
    return {
      info: { pid, ppid, pgid, sid, startTime, state, comm, cmdline: details.cmdline, cpuTicks, reapedCpuTicks, ioBytes: readIoBytes(pid), listening: false },
      socketInodes: details.socketInodes,
    };
  }

  /** Forgets the processes not in `alive` (gone since). */
  keepOnly(alive: Iterable<ProcessIdentity>): void {
    const keep = new Set([...alive].map(processKey));
    for (const key of this.#details.keys()) if (!keep.has(key)) this.#details.delete(key);
  }

  #detailsOf(pid: number, key: string, comm: string, cpuTicks: number): Details {
    const now = this.monotonic();
    const fdCount = countFds(pid);
    const known = this.#details.get(key);
    if (known && known.comm === comm && fdCount > 0 && known.fdCount === fdCount && known.cpuTicks === cpuTicks && now - known.readAt < DETAILS_REFRESH_MS) return known;
    const fresh = { comm, cmdline: readCmdline(pid), fdCount, socketInodes: readSocketInodes(pid), readAt: now, cpuTicks };
    this.#details.set(key, fresh);
    return fresh;
  }
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
  for (const fd of listOrEmpty(`/proc/${pid}/fd`)) {
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

/** Children of every thread: a child belongs to the thread that forked it, not to the main one. */
export function readThreadChildren(pid: number): number[] {
  const children: number[] = [];
  for (const tid of listOrEmpty(`/proc/${pid}/task`)) {
    const text = readOrNull(`/proc/${pid}/task/${tid}/children`);
    if (text) for (const child of text.trim().split(' ')) if (child) children.push(Number(child));
  }
  return children;
}

/** Every pid on the host: the fallback walk's process table (cost grows with the host). */
export function listAllPids(): number[] {
  return listOrEmpty('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
}

export function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function listOrEmpty(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}
