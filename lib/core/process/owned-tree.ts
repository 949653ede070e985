import { processKey, type Observation, type ProcessInfo } from './process-info.ts';
import type { ProcStat } from './proc-stat.ts';

/**
 * Which processes belong to a run. Both observers (Linux /proc, macOS `ps`) share this logic:
 * walk down from seeds by parent links, and remember every process ever seen, because a
 * process whose parent died is reparented (to init or a subreaper) and the chain back to the
 * root is lost. A remembered process that still exists with the same start time stays owned.
 */

export type ProcessIdentity = Pick<ProcessInfo, 'pid' | 'startTime'>;

/** What the supervision loop, the detectors and the kill module need from an OS observer. */
export interface TreeObserver {
  /** One poll of the owned tree (zombies excluded); `sweep` also looks for processes that left the PID chain unseen. */
  observe(sweep?: boolean): Observation;
  /** True when this identity was seen in the owned tree (or is in the unit's cgroup now). */
  isOwned(p: ProcessIdentity): boolean;
  /** The processes of the last observation. */
  known(): ProcessInfo[];
  /** A fresh read of one pid's identity and state (zombies included, state 'Z'); null when gone. */
  readProcess(pid: number): ProcStat | null;
  /** A fresh walk of the owned processes below `root`, `root` included while it lives. */
  listSubtree(root: ProcessIdentity): ProcessInfo[];
}

/** A pid to visit, and how it may be accepted: by known start time, or as the child of `parent`. */
export interface Seed {
  pid: number;
  startTime?: number;
  parent?: number;
}

export function isZombie(p: Pick<ProcessInfo, 'state'>): boolean {
  return p.state === 'Z' || p.state === 'X' || p.state === 'x';
}

/**
 * Breadth-first walk from `seeds`. A seed with a start time must still have it (pid reuse); a
 * child must still name its parent (it may have been reaped and its pid reused between reading
 * the parent's child list and the child's stat). Zombies are neither returned nor descended.
 */
export function walkOwnedTree(
  seeds: Iterable<Seed>,
  read: (pid: number) => ProcessInfo | null,
  childrenOf: (pid: number) => Iterable<number>,
  excluded: ReadonlySet<number>,
): ProcessInfo[] {
  const queue = [...seeds];
  const visited = new Set<number>();
  const found: ProcessInfo[] = [];
  // An index, not shift(): shifting a queue of thousands costs a copy per process.
  for (let next = 0, seed = queue[0]; seed !== undefined; seed = queue[++next]) {
    if (visited.has(seed.pid) || excluded.has(seed.pid)) continue;
    const info = read(seed.pid);
    if (!info || isZombie(info)) continue;
    if (seed.startTime !== undefined && info.startTime !== seed.startTime) continue;
    if (seed.parent !== undefined && info.ppid !== seed.parent) continue;
    visited.add(seed.pid);
    found.push(info);
    for (const child of childrenOf(seed.pid)) queue.push({ pid: child, parent: seed.pid });
  }
  return found;
}

/** ppid → child pids, for observers that read the whole process table at once. */
export function indexChildren(rows: Iterable<Pick<ProcessInfo, 'pid' | 'ppid'>>): Map<number, number[]> {
  const index = new Map<number, number[]>();
  for (const row of rows) {
    const siblings = index.get(row.ppid);
    if (siblings) siblings.push(row.pid);
    else index.set(row.ppid, [row.pid]);
  }
  return index;
}

/** Every process ever seen in the tree, by pid + start time, until it is gone. */
export class OwnershipMemory {
  readonly #identities = new Map<string, ProcessIdentity>();

  remember(processes: Iterable<ProcessIdentity>): void {
    for (const p of processes) this.#identities.set(processKey(p), { pid: p.pid, startTime: p.startTime });
  }

  has(p: ProcessIdentity): boolean {
    return this.#identities.has(processKey(p));
  }

  /** Seeds that make the next walk find remembered processes again, even when reparented. */
  seeds(): Seed[] {
    return [...this.#identities.values()].map(({ pid, startTime }) => ({ pid, startTime }));
  }

  /** Forgets every identity not in `alive` (a process that is gone never comes back); true when one was. */
  keepOnly(alive: Iterable<ProcessIdentity>): boolean {
    const keep = new Set([...alive].map(processKey));
    const before = this.#identities.size;
    for (const key of this.#identities.keys()) if (!keep.has(key)) this.#identities.delete(key);
    return this.#identities.size < before;
  }
}
