import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isSameProcessAlive, readProcStat } from '../../lib/io/process/process-identity.ts';
import { repoRoot } from './cli.ts';

/** Fixture programs: shell scripts from the source tree, node ones compiled next to this file. */
/**
 * Present and not a zombie (an orphan in a container may never be reaped), read from /proc
 * here rather than through lib/, so tests of the killers do not trust the code they test.
 */
export function isRunning(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

export const shellFixture = (name: string) => join(repoRoot, 'test', 'fixtures', name);
export const nodeFixture = (name: string) => new URL(`../fixtures/${name}.js`, import.meta.url).pathname;

export interface StartedTree {
  child: ChildProcess;
  pid: number;
  /** The next complete stdout line (waits for it). */
  nextLine(): Promise<string>;
  /** Makes the test's cleanup SIGKILL this pid too (processes that escaped the tree). */
  adopt(pid: number): void;
}

interface Cleanup {
  after(fn: () => void | Promise<void>): void;
}

/**
 * Starts a process tree the way deadman starts its child: the leader of its own session and
 * group (`detached`). After the test, SIGKILLs the group and every adopted pid (by identity,
 * so a reused pid is left alone).
 */
export function startTree(t: Cleanup, file: string, args: string[], options: SpawnOptions = {}): StartedTree {
  const child = spawn(file, args, { detached: true, stdio: ['ignore', 'pipe', 'inherit'], ...options });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start ${file}`);
  const adopted = [{ pid, startTime: readProcStat(pid)?.startTime ?? -1 }];
  let buffered = '';
  const waiting: Array<(line: string) => void> = [];
  const flush = () => {
    for (let nl = buffered.indexOf('\n'); nl >= 0 && waiting.length > 0; nl = buffered.indexOf('\n')) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      waiting.shift()!(line);
    }
  };
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    flush();
  });
  t.after(() => {
    for (const p of adopted) if (isSameProcessAlive(p.pid, p.startTime)) process.kill(p.pid, 'SIGKILL');
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // group already empty
    }
  });
  return {
    child,
    pid,
    nextLine: () =>
      new Promise((resolve) => {
        waiting.push(resolve);
        flush();
      }),
    adopt(adoptedPid) {
      const stat = readProcStat(adoptedPid);
      if (stat) adopted.push({ pid: adoptedPid, startTime: stat.startTime });
    },
  };
}
