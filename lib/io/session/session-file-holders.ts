import { readlinkSync } from 'node:fs';
import { resolve } from 'node:path';
import { listAllPids } from '../process/proc-read.ts';
import { namesIn } from '../files/quiet-reads.ts';

/**
 * Which live processes hold a file open — the agent writing its session file. Read from
 * /proc/<pid>/fd (Linux); other users' processes are unreadable and so never counted, and
 * where there is no /proc the answer is none (the file's write time then decides).
 */
export function fileHolders(path: string, selfPid = process.pid): number[] {
  const target = resolve(path);
  const holders: number[] = [];
  for (const pid of listAllPids()) {
    if (pid === selfPid) continue;
    if (openFilesOf(pid).includes(target)) holders.push(pid);
  }
  return holders;
}

/** The files one process holds open; none when it is gone or another user's. */
export function openFilesOf(pid: number): string[] {
  return namesIn(`/proc/${pid}/fd`).flatMap((fd) => linkOrNull(`/proc/${pid}/fd/${fd}`) ?? []);
}

function linkOrNull(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}
