import { indexChildren, walkOwnedTree, type Seed, type TreeObserver } from '../../core/process/owned-tree.ts';
import type { ProcessInfo } from '../../core/process/process-info.ts';
import { createTreeObserver, type TreeObserverOptions } from '../../core/process/tree-observer.ts';
import { findUnitCgroup, readCgroupCpuMs, readCgroupPids, type UnitCgroup } from './cgroup.ts';
import { readProcStat, readStartClock } from './process-identity.ts';
import { cpuOfRunMs } from '../../core/process/proc-stat.ts';
import {
  LinuxProcessReader,
  listAllPids,
  readThreadChildren,
  threadChildrenAvailable,
  type LinuxProcess,
} from './proc-read.ts';
import { ListeningSockets } from './proc-sockets.ts';
import { TaggedProcesses } from './tagged-processes.ts';

export interface LinuxObserverOptions extends TreeObserverOptions {
  /** Also own the members of deadman's systemd service cgroup (see cgroup.ts for when it applies); the run tag counts only without one. */
  useCgroup: boolean;
  /** Walk by a scan of every /proc/<pid>/stat even where `children` files exist (tests, benchmark). */
  forceProcScan?: boolean;
}

/**
 * Observes the owned tree through /proc. A poll walks down from the root, from every process
 * remembered from earlier polls (tree-observer.ts) and from the unit cgroup's members, reading each thread's
 * `children` file, so its cost grows with the owned processes, not with the host. Kernels
 * without `children` files get a full /proc scan by ppid instead.
 */
export function createLinuxObserver(options: LinuxObserverOptions): TreeObserver {
  const { rootPid, monotonic } = options;
  const selfPid = options.selfPid ?? process.pid;
  const neverOwned = new Set([0, 1, ...ancestorsOf(selfPid)]);
  const cgroup = options.useCgroup ? findUnitCgroup(selfPid, readProcStat(selfPid)?.ppid ?? 0) : null;
  const rootStartTime = readProcStat(rootPid)?.startTime;
  const scanAll = options.forceProcScan === true || !threadChildrenAvailable();
  const reader = new LinuxProcessReader(monotonic);
  const sockets = new ListeningSockets(monotonic);
  const tagged =
    !cgroup && options.runTag && rootStartTime !== undefined
      ? new TaggedProcesses(options.runTag, rootStartTime)
      : null;
  const startClock = readStartClock(monotonic);
  let walkedStill = false;

  function walk(seeds: Seed[]): ProcessInfo[] {
    const childrenOf = scanAll ? childrenFromScan() : (pid: number) => reader.children(pid);
    const read = new Map<number, LinuxProcess>();
    const found = walkOwnedTree(
      seeds,
      (pid) => {
        // A parent that was not scheduled since has not exited: its children kept their ppid.
        const p = reader.read(pid, (ppid) => ppid === selfPid || ppid === 1 || read.get(ppid)?.ran === false);
        if (p) read.set(pid, p);
        return p?.info ?? null;
      },
      childrenOf,
      cgroup ? withHelpersOfSelf(neverOwned, childrenOf, selfPid, rootPid) : neverOwned,
    );
    sockets.mark(found.map((info) => read.get(info.pid)!));
    walkedStill = found.every((info) => read.get(info.pid)!.ran === false);
    return found;
  }

  return createTreeObserver({
    rootPid,
    rootStartTime,
    monotonic,
    walk,
    walkedStill: () => walkedStill,
    readProcess: readProcStat,
    findTagged: tagged ? () => tagged.find(neverOwned) : null,
    moreSeeds: () => (cgroup ? readCgroupPids(cgroup).map((pid) => ({ pid })) : []),
    ownedElsewhere: (p) =>
      cgroup !== null &&
      readCgroupPids(cgroup).includes(p.pid) &&
      !withHelpersOfSelf(neverOwned, scanAll ? childrenFromScan() : readThreadChildren, selfPid, rootPid).has(p.pid),
    afterPoll: (alive) => reader.keepOnly(alive),
    extra: () => ({
      cgroupCpuMs: cgroup
        ? cgroupCpuOfRun(cgroup, [
            selfPid,
            ...helpersOf(scanAll ? childrenFromScan() : readThreadChildren, selfPid, rootPid),
          ])
        : null,
      ...(startClock ? { startClock } : {}),
    }),
  });
}

/**
 * In the unit's cgroup, deadman's own helpers (evidence commands, systemd-notify, the git shell
 * of the workspace fingerprint) sit next to the supervised tree; they are deadman's work, not the
 * run's: the never-owned set plus them.
 */
function withHelpersOfSelf(
  neverOwned: Set<number>,
  childrenOf: (pid: number) => Iterable<number>,
  selfPid: number,
  rootPid: number,
): Set<number> {
  return new Set([...neverOwned, ...helpersOf(childrenOf, selfPid, rootPid)]);
}

/** deadman's children other than the supervised root, and everything below them. */
function helpersOf(childrenOf: (pid: number) => Iterable<number>, selfPid: number, rootPid: number): Set<number> {
  const helpers = new Set<number>();
  const pending = [...childrenOf(selfPid)].filter((pid) => pid !== rootPid);
  for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
    if (helpers.has(pid)) continue;
    helpers.add(pid);
    pending.push(...childrenOf(pid));
  }
  return helpers;
}

/**
 * The cgroup's CPU time without deadman's and its helpers' (those still running, and what they
 * reaped): the run's work, in ms. A kept helper (the git shell) reaps its own children, so
 * their CPU reaches deadman's counters only when the helper ends; until then it is the
 * helper's, and counting it as the run's would make the fingerprint's git look like work.
 */
function cgroupCpuOfRun(cgroup: UnitCgroup, deadmanAndHelpers: readonly number[]): number | null {
  const total = readCgroupCpuMs(cgroup);
  const stats = deadmanAndHelpers.map(readProcStat);
  return total === null || !stats[0] ? null : cpuOfRunMs(total, stats);
}

/** deadman, its parent, and so on up to init. */
function ancestorsOf(pid: number): number[] {
  const chain: number[] = [];
  for (let current: number | undefined = pid; current !== undefined && current > 1 && !chain.includes(current);) {
    chain.push(current);
    current = readProcStat(current)?.ppid;
  }
  return chain;
}

/** The fallback: one pass over every /proc/<pid>/stat, indexed by parent. */
function childrenFromScan(): (pid: number) => number[] {
  const rows = listAllPids().flatMap((pid) => readProcStat(pid) ?? []);
  const index = indexChildren(rows);
  return (pid) => index.get(pid) ?? [];
}
