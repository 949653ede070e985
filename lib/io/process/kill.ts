import { processKey, type ProcessInfo } from '../../core/process/process-info.ts';
import { isZombie, type ProcessIdentity, type TreeObserver } from '../../core/process/owned-tree.ts';
import { checkSignalTarget, type SignalGuards } from '../../core/process/signal-target.ts';
import type { TerminateResult } from '../../core/process/terminate-result.ts';
import { pollUntil } from '../time/poll-until.ts';

/**
 * The only module that signals the run's descendants. Every signal goes to one pid after a
 * fresh identity check (checkSignalTarget): never to a process group, because a group cannot
 * be identity-checked, may hold processes outside the target (a shell with job control gives
 * each command its own group inside one session), and misses descendants that moved to their
 * own group. The one exception is the stop of the whole run, which forwards the stop signal
 * to the root's group like a terminal would; its SIGKILL sweep is per pid again.
 */

/** How often exits are checked: one read per member, or a whole-tree poll (a `ps -A` on macOS). */
const MEMBER_POLL_MS = 50;
const TREE_POLL_MS = 100;
/** How long SIGKILLed processes get to disappear before they are reported as survivors. */
const KILL_CONFIRM_MS = 2_000;

export type KillObserver = Pick<TreeObserver, 'readProcess' | 'isOwned' | 'listSubtree'>;

export interface TerminateOptions {
  graceMs: number;
  observer: KillObserver;
  guards: SignalGuards;
  monotonic: () => number;
}

/**
 * SIGTERM to every process of the subtree, children before parents (a parent that waits on
 * its child sees it die and can report, rather than being killed first and orphaning it),
 * `graceMs` of polling for real exits, then SIGKILL to the survivors and to anything they
 * started meanwhile. `finding.subtree` (what the detector saw) is merged with a fresh walk,
 * so members already reparented away from the target are not forgotten.
 */
export async function terminateSubtree(
  finding: { target: ProcessIdentity; subtree: readonly ProcessInfo[] },
  options: TerminateOptions,
): Promise<TerminateResult> {
  const { observer, guards, monotonic } = options;
  const target = finding.target;
  const verdict = checkSignalTarget(target, observer.readProcess(target.pid), observer.isOwned(target), guards);
  if (!verdict.ok) return { killed: [], survived: [], refused: verdict.reason, skipped: [] };
  const members = new Members(observer);
  members.add(observer.listSubtree(target));
  members.add(finding.subtree);
  const skipped: TerminateResult['skipped'] = [];
  const send = (signal: NodeJS.Signals) => {
    for (const p of members.deepestFirst()) {
      const reason = signalChecked(p, signal, observer, guards);
      if (reason && !skipped.some((s) => s.pid === p.pid)) skipped.push({ pid: p.pid, reason });
    }
  };
  send('SIGTERM');
  await pollUntil(() => members.alive().length === 0, {
    timeoutMs: options.graceMs,
    everyMs: MEMBER_POLL_MS,
    monotonic,
  });
  if (members.alive().length > 0) {
    for (const p of members.alive()) members.add(observer.listSubtree(p));
    send('SIGKILL');
    await pollUntil(() => members.alive().length === 0, {
      timeoutMs: KILL_CONFIRM_MS,
      everyMs: MEMBER_POLL_MS,
      monotonic,
    });
  }
  const alive = new Set(members.alive().map((p) => p.pid));
  return {
    killed: members
      .all()
      .filter((p) => !alive.has(p.pid))
      .map((p) => p.pid),
    survived: [...alive],
    refused: null,
    skipped,
  };
}

export interface StopOptions {
  observer: TreeObserver;
  rootPid: number;
  /** The stop signal deadman received (SIGTERM, SIGINT, SIGHUP), forwarded to the root's group. */
  signal: NodeJS.Signals;
  graceMs: number;
  /** Cuts the grace short (a second stop signal): go straight to SIGKILL. */
  abort?: AbortSignal;
  guards: Omit<SignalGuards, 'rootPid'>;
  monotonic: () => number;
}

export interface StopResult {
  /** Pids that exited on their own during the grace. */
  exitedInGrace: number[];
  /** Pids that got SIGKILL and are gone. */
  killed: number[];
  survived: number[];
}

/**
 * Stops the whole run: the stop signal to the root's process group (like a terminal's ^C, so
 * an agent can abort its turn) and SIGTERM to every other owned process, children first, each
 * re-checked — a tool in its own session (agents setsid their commands) hears it too instead of
 * only SIGKILL after the whole grace. Then up to `graceMs` for the tree to exit (resolving as
 * soon as no owned process is left), then SIGKILL to every process the run still owns. The
 * first look sweeps for tagged processes that left the PID chain unseen; the SIGKILL sweep
 * repeats until nothing owned is left, since a process can fork between two sweeps.
 */
export async function stopOwnedTree(options: StopOptions): Promise<StopResult> {
  const { observer, rootPid, signal, monotonic } = options;
  const guards: SignalGuards = { ...options.guards, rootPid: null };
  const seen = new Map<string, ProcessInfo>();
  const remaining = (sweep = false) => {
    const processes = observer.observe(sweep).processes;
    for (const p of processes) seen.set(processKey(p), p);
    return processes;
  };
  const owned = remaining(true);
  // The usual end (the work exited and took its children along): with nothing owned left no
  // process is there to fork another, so this sweep is the last word. Each further look is a
  // pass over every /proc/<pid>, which start-up pays for and which grows with the host.
  if (owned.length === 0) return { exitedInGrace: [], killed: [], survived: [] };
  const group = forwardToRootGroup(owned, rootPid, signal, observer, guards);
  const members = new Members(observer);
  // The group is re-read: a process that just called setsid() left it and did not hear the signal.
  members.add(
    owned.filter((p) => p.pid !== rootPid && (group === null || observer.readProcess(p.pid)?.pgid !== group)),
  );
  for (const p of members.deepestFirst()) signalChecked(p, 'SIGTERM', observer, guards);
  const exitedInGrace =
    (await pollUntil(() => remaining().length === 0, {
      timeoutMs: options.graceMs,
      everyMs: TREE_POLL_MS,
      monotonic,
      abort: options.abort,
    })) !== null;
  const signalled = new Set<string>();
  // Seen empty within the grace: as above, that look is the last word.
  if (!exitedInGrace)
    await pollUntil(
      () => {
        const left = remaining();
        for (const p of left) {
          signalChecked(p, 'SIGKILL', observer, guards);
          signalled.add(processKey(p));
        }
        return left.length === 0;
      },
      { timeoutMs: KILL_CONFIRM_MS, everyMs: TREE_POLL_MS, monotonic },
    );
  const survivors = new Set(observer.known().map(processKey));
  const pidsWhere = (keep: (key: string) => boolean) => [...seen].filter(([key]) => keep(key)).map(([, p]) => p.pid);
  return {
    exitedInGrace: pidsWhere((key) => !signalled.has(key) && !survivors.has(key)),
    killed: pidsWhere((key) => signalled.has(key) && !survivors.has(key)),
    survived: pidsWhere((key) => survivors.has(key)),
  };
}

/**
 * Like a terminal's ^C: the whole foreground group hears it. Only when some owned process is
 * in that group (then the group id cannot name anything else) and it is not deadman's own.
 * Returns the group signalled, or null when only the root was (or nothing).
 */
function forwardToRootGroup(
  owned: ProcessInfo[],
  rootPid: number,
  signal: NodeJS.Signals,
  observer: TreeObserver,
  guards: SignalGuards,
): number | null {
  const root = owned.find((p) => p.pid === rootPid);
  const pgid = root?.pgid ?? rootPid;
  const ownGroup = observer.readProcess(guards.selfPid)?.pgid;
  if (pgid > 1 && pgid !== ownGroup && owned.some((p) => p.pgid === pgid)) {
    try {
      process.kill(-pgid, signal);
    } catch {
      // the group emptied meanwhile
    }
    return pgid;
  }
  if (root) signalChecked(root, signal, observer, guards);
  return null;
}

/** Signals one process if it passes the check; returns why not otherwise (null when sent or already gone). */
export function signalChecked(
  p: ProcessIdentity,
  signal: NodeJS.Signals,
  observer: Pick<KillObserver, 'readProcess' | 'isOwned'>,
  guards: SignalGuards,
): string | null {
  const current = observer.readProcess(p.pid);
  if (isGone(p, current)) return null;
  const verdict = checkSignalTarget(p, current, observer.isOwned(p), guards);
  if (!verdict.ok) return verdict.reason;
  try {
    process.kill(p.pid, signal);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ESRCH' ? null : `${signal} to pid ${p.pid} failed: ${code ?? (error as Error).message}`;
  }
}

function isGone(p: ProcessIdentity, current: Pick<ProcessInfo, 'startTime' | 'state'> | null): boolean {
  return current === null || current.startTime !== p.startTime || isZombie(current);
}

/** The processes a termination is responsible for, by identity. */
class Members {
  readonly #byKey = new Map<string, ProcessInfo>();
  constructor(private readonly observer: KillObserver) {}

  add(processes: Iterable<ProcessInfo>): void {
    for (const p of processes) if (!this.#byKey.has(processKey(p))) this.#byKey.set(processKey(p), p);
  }

  all(): ProcessInfo[] {
    return [...this.#byKey.values()];
  }

  alive(): ProcessInfo[] {
    return this.all().filter((p) => !isGone(p, this.observer.readProcess(p.pid)));
  }

  /** Deepest first by the parent links among members; unlinked members count as tops. */
  deepestFirst(): ProcessInfo[] {
    const byPid = new Map(this.all().map((p) => [p.pid, p]));
    const depth = (p: ProcessInfo): number => {
      let d = 0;
      for (let parent = byPid.get(p.ppid); parent && d < byPid.size; parent = byPid.get(parent.ppid)) d++;
      return d;
    };
    return this.all()
      .map((p) => ({ p, d: depth(p) }))
      .sort((a, b) => b.d - a.d)
      .map(({ p }) => p);
  }
}
