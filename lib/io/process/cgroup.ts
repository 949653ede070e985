import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readOrNull } from '../files/quiet-reads.ts';

/**
 * The systemd unit's cgroup as proof of ownership: a process that escaped the PID chain
 * (setsid, double fork, reparenting to init) is still in the unit's cgroup, and nothing
 * outside the unit can be. systemd tracks processes in the v2 hierarchy (`0::/path`, mounted at
 * /sys/fs/cgroup on unified systems) or, on legacy and hybrid systems such as Debian 12's
 * containers, in the v1 `name=systemd` hierarchy at /sys/fs/cgroup/systemd.
 *
 * Used only when it is the cgroup of a service whose main process is deadman: a login
 * session's `.scope` holds the user's whole shell, and a daemon's `.service` (cron, sshd
 * without pam_systemd) holds the daemon and every job it started — none of that is ours.
 */

export interface UnitCgroup {
  /** The cgroup's path inside its hierarchy, e.g. `/system.slice/agent.service`. */
  path: string;
  /** The file listing its member pids. */
  procsFile: string;
  /** Its `cpu.stat` (v2 only: the v1 name=systemd hierarchy has no CPU accounting). */
  cpuStatFile: string | null;
}

/** The cgroup path systemd tracks this process in, from `/proc/<pid>/cgroup` text. */
export function systemdCgroupPath(text: string, unifiedOnly: boolean): { mount: string; path: string } | null {
  const lines = text.split('\n');
  if (unifiedOnly) {
    const path = lines.find((line) => line.startsWith('0::'))?.slice(3);
    return path ? { mount: '/sys/fs/cgroup', path } : null;
  }
  const named = lines.find((line) => line.split(':')[1] === 'name=systemd');
  const path = named?.slice(named.indexOf(':name=systemd:') + ':name=systemd:'.length);
  return path ? { mount: '/sys/fs/cgroup/systemd', path } : null;
}

/** A service cgroup (not the root, not a scope or slice), by its last path segment. */
export function isServiceCgroup(path: string): boolean {
  return /\/[^/]+\.service$/.test(path);
}

/**
 * deadman's unit cgroup, or null when deadman is not the main process of a service: its
 * parent must be a systemd manager (system or `--user`), so `ExecStart=` must start deadman
 * directly rather than through a shell.
 */
export function findUnitCgroup(selfPid = process.pid, parentPid = process.ppid): UnitCgroup | null {
  if (readOrNull(`/proc/${parentPid}/comm`)?.trim() !== 'systemd') return null;
  const text = readOrNull(`/proc/${selfPid}/cgroup`);
  if (!text) return null;
  const found = systemdCgroupPath(text, existsSync('/sys/fs/cgroup/cgroup.controllers'));
  if (!found || !isServiceCgroup(found.path)) return null;
  const procsFile = join(found.mount, found.path, 'cgroup.procs');
  const cpuStatFile = join(found.mount, found.path, 'cpu.stat');
  return existsSync(procsFile)
    ? { path: found.path, procsFile, cpuStatFile: existsSync(cpuStatFile) ? cpuStatFile : null }
    : null;
}

/**
 * CPU time used by the cgroup's processes so far, exited ones included (`usage_usec`), in ms;
 * null without CPU accounting.
 */
export function readCgroupCpuMs(cgroup: UnitCgroup): number | null {
  const usec = cgroup.cpuStatFile ? /^usage_usec (\d+)$/m.exec(readOrNull(cgroup.cpuStatFile) ?? '')?.[1] : undefined;
  return usec === undefined ? null : Number(usec) / 1000;
}

export function readCgroupPids(cgroup: UnitCgroup): number[] {
  try {
    return readFileSync(cgroup.procsFile, 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
