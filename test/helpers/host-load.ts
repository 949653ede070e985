import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * Load like a busy shared host's: CPU-bound loops and exec storms (short processes started
 * back to back, as cron jobs and `watch systemctl status` do). Each is a shell in its own
 * session that checks every round that `ownerPid` is still alive, so the load ends by itself
 * with its owner even when the owner is SIGKILLed. The returned function stops it at once.
 */
export interface HostLoadOptions {
  busyLoops: number;
  execStorms?: number;
  /** Pin the busy loops to this CPU (taskset), to starve whatever else is pinned there. */
  cpu?: number;
  ownerPid?: number;
}

export function startHostLoad({ busyLoops, execStorms = 0, cpu, ownerPid = process.pid }: HostLoadOptions): () => void {
  const alive = `kill -0 ${ownerPid} 2>/dev/null`;
  const pinned = cpu === undefined ? [] : ['taskset', '-c', String(cpu)];
  const commands = [
    ...Array.from({ length: busyLoops }, () => [...pinned, 'sh', '-c', `while ${alive}; do :; done`]),
    ...Array.from({ length: execStorms }, () => [
      'sh',
      '-c',
      `while ${alive}; do /bin/true; ls /proc > /dev/null; done`,
    ]),
  ];
  const children = commands.map(([file, ...args]) => spawn(file!, args, { detached: true, stdio: 'ignore' }));
  return () => {
    for (const child of children) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
}

/** The first CPU this process may run on (Cpus_allowed_list), where pinned load goes. */
export function firstAllowedCpu(): number {
  const list = /^Cpus_allowed_list:\s*(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  return Number(list ?? 0);
}
