import { execFileSync } from 'node:child_process';
import type { ProcessInfo } from '../../core/process/process-info.ts';
import { indexChildren, walkOwnedTree, type Seed, type TreeObserver } from '../../core/process/owned-tree.ts';
import { createTreeObserver, type TreeObserverOptions } from '../../core/process/tree-observer.ts';
import {
  parseLsofPids,
  parsePsOutput,
  PS_COLUMNS,
  PS_ENV_ARGS,
  taggedInPsListing,
} from '../../core/process/ps-darwin.ts';
import { RUN_TAG_ENV } from '../../core/process/run-tag.ts';

export interface DarwinObserverOptions extends TreeObserverOptions {
  /** Tests: the uid whose processes may be owned (default: ours), and what `ps`/`lsof` print. */
  uid?: number;
  run?: (file: 'ps' | 'lsof', args: readonly string[]) => string;
}

/**
 * Observes the owned tree on macOS with one `ps -A` per poll (macOS has no /proc and no
 * cgroups: ownership is the PID chain plus the memory of every process seen in it). `ps -A`
 * lists the whole host, so here a poll's cost grows with the host's processes. Listening
 * sockets come from `lsof`, which is slow, so it runs only when the owned set changed or
 * LISTEN_RECHECK_MS passed. Runs on Linux too (procps `ps` prints the same columns), which is
 * how its tests run. With a run tag, the processes of our uid whose environment (`ps -E`)
 * carries it and that started after the root are owned too, found at the first poll, every
 * few seconds, and on every poll once the root is gone (as on Linux): a `setsid sleep 100 &`
 * of a shell that exits at once is still stopped. That listing is macOS-only (procps has no
 * `-E`); it is tested with hand-made output in its shape, not on a Mac.
 */
const LISTEN_RECHECK_MS = 10_000;
const COMMAND_TIMEOUT_MS = 5_000;

export function createDarwinObserver(options: DarwinObserverOptions): TreeObserver {
  const { rootPid, monotonic } = options;
  const run = options.run ?? runTolerant;
  const runPs = (args: readonly string[]) => run('ps', args);
  const selfPid = options.selfPid ?? process.pid;
  const uid = options.uid ?? process.getuid?.() ?? -1;
  const initial = tableOf(runPs(['-A', '-o', PS_COLUMNS]));
  const neverOwned = new Set([0, 1, ...ancestorsIn(initial, selfPid)]);
  const rootStartTime = initial.get(rootPid)?.startTime;
  const listening = new ListeningCache(monotonic, (pids) => runLsof(run, pids));
  const needle = options.runTag ? `${RUN_TAG_ENV}=${options.runTag}` : null;

  function walk(seeds: Seed[]): ProcessInfo[] {
    const table = tableOf(runPs(['-A', '-o', PS_COLUMNS]));
    const children = indexChildren(table.values());
    const found = walkOwnedTree(
      seeds,
      (pid) => table.get(pid) ?? null,
      (pid) => children.get(pid) ?? [],
      neverOwned,
    );
    const listeners = listening.pidsAmong(found.map((p) => p.pid));
    for (const p of found) p.listening = listeners.has(p.pid);
    return found;
  }

  return createTreeObserver({
    rootPid,
    rootStartTime,
    monotonic,
    walk,
    readProcess: (pid) => tableOf(runPs(['-p', String(pid), '-o', PS_COLUMNS])).get(pid) ?? null,
    findTagged:
      needle === null || rootStartTime === undefined
        ? null
        : () =>
            taggedInPsListing(runPs(PS_ENV_ARGS), needle, uid, rootStartTime).filter(
              (seed) => !neverOwned.has(seed.pid),
            ),
  });
}

class ListeningCache {
  #checkedPids = '';
  #checkedAt = -Infinity;
  #listeners = new Set<number>();

  constructor(
    private readonly monotonic: () => number,
    private readonly listListeners: (pidList: string) => string,
  ) {}

  pidsAmong(pids: number[]): Set<number> {
    const key = [...pids].sort((a, b) => a - b).join(',');
    const now = this.monotonic();
    if (key !== this.#checkedPids || now - this.#checkedAt >= LISTEN_RECHECK_MS) {
      this.#listeners = new Set(pids.length === 0 ? [] : parseLsofPids(this.listListeners(key)));
      this.#checkedPids = key;
      this.#checkedAt = now;
    }
    return this.#listeners;
  }
}

/** Listening TCP sockets and bound UDP sockets of these pids only (`-a` ANDs the selections). */
function runLsof(run: NonNullable<DarwinObserverOptions['run']>, pidList: string): string {
  return (
    run('lsof', ['-nP', '-a', '-p', pidList, '-iTCP', '-sTCP:LISTEN', '-Fp']) +
    run('lsof', ['-nP', '-a', '-p', pidList, '-iUDP', '-Fp'])
  );
}

/** ps and lsof exit 1 when nothing matched; what they printed is still the answer. */
function runTolerant(file: 'ps' | 'lsof', args: readonly string[]): string {
  try {
    return execFileSync(file, args, {
      encoding: 'utf8',
      env: { ...process.env, LC_ALL: 'C' },
      timeout: COMMAND_TIMEOUT_MS,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch (error) {
    const stdout = (error as { stdout?: unknown }).stdout;
    return typeof stdout === 'string' ? stdout : '';
  }
}

function tableOf(psOutput: string): Map<number, ProcessInfo> {
  return new Map(parsePsOutput(psOutput).map((p) => [p.pid, p]));
}

function ancestorsIn(table: Map<number, ProcessInfo>, pid: number): number[] {
  const chain: number[] = [];
  for (
    let current = table.get(pid);
    current && current.pid > 1 && !chain.includes(current.pid);
    current = table.get(current.ppid)
  ) {
    chain.push(current.pid);
  }
  return chain.length > 0 ? chain : [pid];
}
