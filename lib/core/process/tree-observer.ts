import type { Observation, ProcessInfo } from './process-info.ts';
import type { ProcStat } from './proc-stat.ts';
import { OwnershipMemory, type ProcessIdentity, type Seed, type TreeObserver } from './owned-tree.ts';

/**
 * The part of an owned-tree observer that is the same on every OS: seed each poll from the
 * root, from every process remembered (reparenting loses the chain, not the ownership) and
 * from what the OS adds, look for run-tagged processes when a sweep is due, and remember what
 * was found. The OS observers (io/process/proc-linux.ts, proc-darwin.ts) hand in how to walk
 * their process table and what else they know. Pure: the reads happen in the parts.
 */

/** What every OS observer is built from. */
export interface TreeObserverOptions {
  /** The supervised child: the root of the owned tree. */
  rootPid: number;
  /** deadman's own pid (default: this process); it and its ancestors are never owned. */
  selfPid?: number;
  monotonic: () => number;
  /** The run tag in the child's environment: ownership of processes that left the PID chain unseen. */
  runTag?: string;
}

/** What one OS supplies; `createTreeObserver` makes the rest. */
export interface ObserverParts {
  rootPid: number;
  /** The root's start time as first read; undefined when it was gone already. */
  rootStartTime: number | undefined;
  monotonic: () => number;
  /** One walk of the OS's process table down from `seeds` (walkOwnedTree over its reads). */
  walk(seeds: Seed[]): ProcessInfo[];
  /**
   * True when the last walk proved that none of the processes it found was scheduled since it
   * was last read (so none forked or exec'd); absent where the OS cannot tell (always unproved).
   */
  walkedStill?: () => boolean;
  readProcess(pid: number): ProcStat | null;
  /** The live processes carrying the run tag; null without a tag (or a root to date them by). */
  findTagged: (() => Seed[]) | null;
  /** More seeds of every poll (the unit cgroup's members). */
  moreSeeds?: () => Seed[];
  /** Owned though the tree never showed it (a member of the unit cgroup now). */
  ownedElsewhere?: (p: ProcessIdentity) => boolean;
  /** Told the processes of each poll (to forget what it keeps of the others). */
  afterPoll?: (alive: readonly ProcessInfo[]) => void;
  /** What the OS adds to each observation. */
  extra?: () => Partial<Observation>;
}

/** How often, while the root lives and its tree runs, every process is checked for the run tag. */
export const TAG_SCAN_MS = 5_000;
/**
 * How often while no owned process ran. A tagged process is born of a tagged one that runs
 * (fork, exec), so a still tree makes none; but a spawner outside it may start one later on its
 * earlier request (an `at` job carries the environment it was queued with).
 */
export const TAG_SCAN_STILL_MS = 60_000;

/**
 * When a sweep for tagged processes is due: at the first poll, when asked, on every poll once
 * the root is gone, and every TAG_SCAN_MS while owned processes run — else every
 * TAG_SCAN_STILL_MS. `stirred` is told at every walk that could not prove its processes still
 * (one ran, appeared or vanished); a walk at a sweep's own time counts as after it, because the
 * sweep listed /proc before that walk read the processes.
 */
export class TagSweepSchedule {
  #lastAt = -Infinity;
  #stirredAt = -Infinity;

  due(at: number, asked: boolean, rootGone: boolean): boolean {
    const since = at - this.#lastAt;
    const wait = this.#stirredAt >= this.#lastAt ? TAG_SCAN_MS : TAG_SCAN_STILL_MS;
    if (!asked && !rootGone && since < wait) return false;
    this.#lastAt = at;
    return true;
  }

  stirred(at: number): void {
    this.#stirredAt = at;
  }
}

export function createTreeObserver(parts: ObserverParts): TreeObserver {
  const { rootPid, rootStartTime, monotonic, findTagged } = parts;
  const memory = new OwnershipMemory();
  const tagSweeps = new TagSweepSchedule();
  let last: ProcessInfo[] = [];
  const walk = (seeds: Seed[]): ProcessInfo[] => {
    const found = parts.walk(seeds);
    // Every walk counts (a listSubtree's read is the next poll's "since"); a process seen anew ran.
    if (!(parts.walkedStill?.() ?? false) || found.some((p) => !memory.has(p))) tagSweeps.stirred(monotonic());
    memory.remember(found);
    return found;
  };
  const taggedSeeds = (at: number, sweep: boolean): Seed[] =>
    findTagged && tagSweeps.due(at, sweep, !last.some((p) => p.pid === rootPid)) ? findTagged() : [];

  return {
    observe(sweep = false) {
      const at = monotonic();
      const rootSeed: Seed[] = rootStartTime === undefined ? [] : [{ pid: rootPid, startTime: rootStartTime }];
      last = walk([...rootSeed, ...memory.seeds(), ...(parts.moreSeeds?.() ?? []), ...taggedSeeds(at, sweep)]);
      // One that vanished ran to its end, and may have left children the chain no longer reaches.
      if (memory.keepOnly(last)) tagSweeps.stirred(at);
      parts.afterPoll?.(last);
      return { at, rootPid, processes: last, ...parts.extra?.() };
    },
    isOwned: (p) => memory.has(p) || (parts.ownedElsewhere?.(p) ?? false),
    known: () => last,
    readProcess: (pid) => parts.readProcess(pid),
    listSubtree: (root) => walk([{ pid: root.pid, startTime: root.startTime }]),
  };
}
