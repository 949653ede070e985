import type { ProcessInfo } from '../../core/process/process-info.ts';
import { indexChildren, OwnershipMemory, walkOwnedTree, type ProcessIdentity, type Seed, type TreeObserver } from '../../core/process/owned-tree.ts';
import { findUnitCgroup, readCgroupCpuMs, readCgroupPids, type UnitCgroup } from './cgroup.ts';
import { readProcStat, readStartClock } from './process-identity.ts';
import { LinuxProcessReader, listAllPids, readThreadChildren, threadChildrenAvailable, type LinuxProcess } from './proc-read.ts';
import { ListeningSockets } from './proc-sockets.ts';
import { TaggedProcesses, TagSweepSchedule } from './tagged-processes.ts';

export interface LinuxObserverOptions {
  /** The supervised child: the root of the owned tree. */
  rootPid: number;
  /** deadman's own pid (default: this process); it and its ancestors are never owned. */
  selfPid?: number;
  /** Also own the members of deadman's systemd service cgroup (see cgroup.ts for when it applies). */
  useCgroup: boolean;
  monotonic: () => number;
  /** Walk by a scan of every /proc/<pid>/stat even where `children` files exist (tests, benchmark). */
  forceProcScan?: boolean;
  /** The run tag in the child's environment: proof of ownership where there is no unit cgroup. */
  runTag?: string;
}

/**
 * Observes the owned tree through /proc. A poll walks down from the root, from every process
 * remembered from earlier polls (still alive with the same start time: reparenting loses the
 * chain, not the ownership) and from the unit cgroup's members, reading each thread's
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
  const memory = new OwnershipMemory();
  const reader = new LinuxProcessReader(monotonic);
  const sockets = new ListeningSockets(monotonic);
  const tagged = !cgroup && options.runTag && rootStartTime !== undefined ? new TaggedProcesses(options.runTag, rootStartTime) : null;
  const tagSweeps = new TagSweepSchedule();
  let last: ProcessInfo[] = [];
  const startClock = readStartClock(monotonic);
  const taggedSeeds = (at: number, sweep: boolean): Seed[] =>
    tagged && tagSweeps.due(at, sweep, !last.some((p) => p.pid === rootPid)) ? tagged.find(neverOwned) : [];

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
    memory.remember(found);
    return found;
  }

  return {
    observe(sweep = false) {
      const at = monotonic();
      const rootSeed: Seed[] = rootStartTime === undefined ? [] : [{ pid: rootPid, startTime: rootStartTime }];
      const cgroupSeeds: Seed[] = cgroup ? readCgroupPids(cgroup).map((pid) => ({ pid })) : [];
      last = walk([...rootSeed, ...memory.seeds(), ...cgroupSeeds, ...taggedSeeds(at, sweep)]);
      memory.keepOnly(last);
      reader.keepOnly(last);
      return { at, rootPid, processes: last, cgroupCpuMs: cgroup ? cgroupCpuOfRun(cgroup, selfPid) : null, ...(startClock ? { startClock } : {}) };
    },
    isOwned(p: ProcessIdentity) {
      if (memory.has(p)) return true;
      if (!cgroup || !readCgroupPids(cgroup).includes(p.pid)) return false;
      return !withHelpersOfSelf(neverOwned, scanAll ? childrenFromScan() : readThreadChildren, selfPid, rootPid).has(p.pid);
    },
    known: () => last,
    readProcess: readProcStat,
    listSubtree: (root) => walk([{ pid: root.pid, startTime: root.startTime }]),
  };
}

/**
 * In the unit's cgroup, deadman's own helpers (evidence commands, systemd-notify) sit next
 * to the supervised tree; they are deadman's work, not the run's: the never-owned set plus them.
 */
function withHelpersOfSelf(neverOwned: Set<number>, childrenOf: (pid: number) => Iterable<number>, selfPid: number, rootPid: number): Set<number> {
  const excluded = new Set(neverOwned);
  const pending = [...childrenOf(selfPid)].filter((pid) => pid !== rootPid);
  for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
    if (excluded.has(pid)) continue;
    excluded.add(pid);
    pending.push(...childrenOf(pid));
  }
  return excluded;
}

/** The cgroup's CPU time without deadman's own (and its reaped helpers'): the run's work, in ms. */
function cgroupCpuOfRun(cgroup: UnitCgroup, selfPid: number): number | null {
  const total = readCgroupCpuMs(cgroup);
  const self = readProcStat(selfPid);
  return total === null || !self ? null : Math.max(0, total - (self.cpuTicks + (self.reapedCpuTicks ?? 0)) * 10);
}

/** deadman, its parent, and so on up to init. */
function ancestorsOf(pid: number): number[] {
  const chain: number[] = [];
  for (let current: number | undefined = pid; current !== undefined && current > 1 && !chain.includes(current); ) {
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
