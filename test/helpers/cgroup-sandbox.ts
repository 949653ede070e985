import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Private cgroups for the test user managers. A user manager started in the root cgroup moves
 * every process there (PID 1 included) into `/init.scope`, and two managers started that way
 * share `/app.slice/<unit>` paths, so stopping a unit in one kills the same-named unit of the
 * other. A child cgroup of the test's own gives each manager a tree of its own to empty.
 */

/** One child cgroup of ours in every hierarchy systemd tracks processes in (v1 name=systemd, v2). */
export function createPrivateCgroups(): string[] {
  const own = readFileSync('/proc/self/cgroup', 'utf8').split('\n');
  const pathIn = (prefix: string) => own.find((line) => line.startsWith(prefix))?.slice(prefix.length);
  const leaf = `deadman-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const hierarchies: Array<[string, string | undefined]> = existsSync('/sys/fs/cgroup/cgroup.controllers')
    ? [['/sys/fs/cgroup', pathIn('0::')]]
    : [
        ['/sys/fs/cgroup/systemd', own.find((l) => l.includes(':name=systemd:'))?.split(':name=systemd:')[1]],
        ['/sys/fs/cgroup/unified', pathIn('0::')],
      ];
  const dirs = hierarchies
    .filter(([mount, path]) => path !== undefined && existsSync(join(mount, 'cgroup.procs')))
    .map(([mount, path]) => join(mount, path!, leaf));
  if (dirs.length === 0) throw new Error('no writable cgroup hierarchy found under /sys/fs/cgroup');
  for (const dir of dirs) mkdirSync(dir);
  return dirs;
}

/** SIGKILLs whatever is still in the manager's cgroups, then removes them (deepest first). */
export function killCgroupTrees(roots: string[]): void {
  for (const root of roots) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const dirs = cgroupDirs(root);
      for (const dir of dirs) {
        for (const pid of readPids(dir)) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
      }
      if (dirs.reverse().every(tryRemoveDir)) break;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
    }
  }
}

function cgroupDirs(root: string): string[] {
  if (!existsSync(root)) return [];
  const children = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory());
  return [root, ...children.flatMap((d) => cgroupDirs(join(root, d.name)))];
}

function readPids(dir: string): number[] {
  try {
    return readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function tryRemoveDir(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}
