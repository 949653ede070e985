import { formatDuration } from '../time/duration.ts';
import { processKey, type Observation, type ProcessInfo } from '../process/process-info.ts';
import type { TreeProgress } from './process-progress.ts';
import { ownerOf, type OpenTool, type Ownership } from './tool-ownership.ts';

/**
 * HUNG_PROCESS: a subtree of the owned tree that did not work for `hungTimeoutMs` — its CPU
 * time and I/O bytes stayed under the activity floors (process-progress.ts), however often it
 * ticked or started a process — while the root printed nothing. Pure: the caller folds
 * observations with `updateProgress` and passes the times.
 *
 * Where the target is: climb from each idle leaf through parents in the same process group or
 * session, never into the root's own group (the agent lives there, even below a wrapper such
 * as `timeout`) and never to the root. Agents start each tool command as a session leader, so
 * the climb ends at that leader: the tool command as a whole. The whole subtree of that target
 * must be idle; a busy process anywhere in it means the command is working, and deadman does
 * not kill part of a working command.
 */

export interface HungOptions {
  hungTimeoutMs: number;
  /** Monotonic ms of the root's last output line or event. */
  lastOutputAt: number;
  /** Keys of processes that are never targets: servers, processes alive when ready_pattern or ready_port matched. */
  baseline: ReadonlySet<string>;
  ignore: readonly RegExp[];
  openTools: readonly OpenTool[];
  /** When the run's first tool call started: a process born before it is the agent's helper unless it runs an open call's command. */
  firstToolAt: number | null;
  /** With an agent adapter, a target needs an open tool call that it belongs to (tool-ownership.ts). */
  requireOpenTool: boolean;
}

export interface HungFinding {
  target: ProcessInfo;
  /** The target and all its descendants, parents before children. */
  subtree: ProcessInfo[];
  idleMs: number;
  /** The open tool call the target belongs to, if any. */
  toolId: string | null;
  /** Why nobody can tell whose the target is, when nobody can: a person decides, deadman does not kill it by itself. */
  unproven: string | null;
  /** The target runs its call's command (not only born after the call). */
  byCommand: boolean;
  reason: string;
}

export function findHungSubtree(observation: Observation, progress: TreeProgress, options: HungOptions): HungFinding | null {
  const now = observation.at;
  if (now - options.lastOutputAt < options.hungTimeoutMs) return null;
  if (options.requireOpenTool && options.openTools.length === 0) return null;
  const tree = new Tree(observation);
  const findings = [...new Set(tree.leaves().flatMap((leaf) => tree.commandTop(leaf) ?? []))]
    .map((top) => judge(top, tree, progress, options, now))
    .filter((f): f is HungFinding => f !== null)
    .filter((f) => f.toolId !== null || f.unproven !== null || !options.requireOpenTool);
  // A command match is the strongest evidence, a birth after the call the next; unproven last.
  const rank = (f: HungFinding) => (f.toolId !== null ? (f.byCommand ? 3 : 2) : f.unproven === null ? 1 : 0);
  findings.sort((a, b) => rank(b) - rank(a) || b.idleMs - a.idleMs || a.target.pid - b.target.pid);
  return findings[0] ?? null;
}

function judge(target: ProcessInfo, tree: Tree, progress: TreeProgress, options: HungOptions, now: number): HungFinding | null {
  const subtree = tree.subtree(target);
  if (subtree.some((p) => p.listening || options.baseline.has(processKey(p)))) return null;
  if (subtree.some((p) => options.ignore.some((re) => re.test(p.cmdline.join(' ') || p.comm)))) return null;
  const targetProgress = progress.processes.get(processKey(target));
  if (!targetProgress) return null;
  // The target's progress covers its whole subtree.
  const idleMs = now - Math.max(options.lastOutputAt, targetProgress.lastProgressAt);
  if (idleMs < options.hungTimeoutMs) return null;
  const owner = ownerOf({ subtree, bornAt: targetProgress.bornAt, agentChild: tree.agentChild(target) }, options.openTools, options.firstToolAt);
  const tool = owner.kind === 'tool' ? owner.tool : null;
  const unproven = owner.kind === 'ambiguous' ? owner.why : null;
  const byCommand = owner.kind === 'tool' && owner.evidence === 'command';
  return { target, subtree, idleMs, toolId: tool?.toolId ?? null, unproven, byCommand, reason: explain(target, subtree, idleMs, owner, now) };
}

function explain(target: ProcessInfo, subtree: ProcessInfo[], idleMs: number, owner: Ownership, now: number): string {
  const command = target.cmdline.join(' ') || target.comm;
  const shown = command.length > 80 ? `${command.slice(0, 77)}...` : command;
  const leader = target.sid === target.pid ? ', session leader' : target.pgid === target.pid ? ', group leader' : '';
  const others = subtree.length - 1;
  const below = others === 0 ? '' : ` and ${others} descendant${others === 1 ? '' : 's'}`;
  const call = owner.kind === 'tool'
    ? `; open tool call ${owner.tool.toolId} since ${formatDuration(now - owner.tool.startedAt)} (by its ${owner.evidence})`
    : owner.kind === 'ambiguous' ? `; whose it is is unproven: ${owner.why}` : '';
  return `${shown} (pid ${target.pid}${leader})${below} idle for ${formatDuration(idleMs)}: CPU and I/O under the activity floors, no output from the root${call}`;
}

/** One observation as a tree, with the climbing rules. */
class Tree {
  readonly #byPid: Map<number, ProcessInfo>;
  readonly #children = new Map<number, ProcessInfo[]>();
  readonly #rootPgid: number;

  constructor(private readonly observation: Observation) {
    this.#byPid = new Map(observation.processes.map((p) => [p.pid, p]));
    for (const p of observation.processes) {
      if (p.pid === observation.rootPid || !this.#byPid.has(p.ppid)) continue;
      const siblings = this.#children.get(p.ppid);
      if (siblings) siblings.push(p);
      else this.#children.set(p.ppid, [p]);
    }
    // The root is started as the leader of its own group; if it is gone, its pid names the group.
    this.#rootPgid = this.#byPid.get(observation.rootPid)?.pgid ?? observation.rootPid;
  }

  leaves(): ProcessInfo[] {
    return this.observation.processes.filter((p) => !this.#children.has(p.pid) && this.#eligible(p));
  }

  /** The highest process reachable from `leaf` within its group or session, or null if none is eligible. */
  commandTop(leaf: ProcessInfo): ProcessInfo | null {
    if (!this.#eligible(leaf)) return null;
    let top = leaf;
    const seen = new Set([leaf.pid]);
    for (let parent = this.#byPid.get(top.ppid); parent && !seen.has(parent.pid); parent = this.#byPid.get(top.ppid)) {
      if (!this.#eligible(parent) || (parent.pgid !== top.pgid && parent.sid !== top.sid)) break;
      seen.add(parent.pid);
      top = parent;
    }
    return top;
  }

  subtree(top: ProcessInfo): ProcessInfo[] {
    const result = [top];
    const seen = new Set([top.pid]);
    for (let i = 0; i < result.length; i++) {
      for (const child of this.#children.get(result[i]!.pid) ?? []) {
        if (seen.has(child.pid)) continue;
        seen.add(child.pid);
        result.push(child);
      }
    }
    return result;
  }

  /** The agent started it: its parent is the root or in the root's group (a wrapper, codex below its npm shim). */
  agentChild(p: ProcessInfo): boolean {
    return p.ppid === this.observation.rootPid || this.#byPid.get(p.ppid)?.pgid === this.#rootPgid;
  }

  #eligible(p: ProcessInfo): boolean {
    return p.pid !== this.observation.rootPid && p.pgid !== this.#rootPgid;
  }
}

/** The STATUS= words for a hung target, short enough for `systemctl status`. */
export function hungStatus(finding: HungFinding): string {
  const t = finding.target;
  return `hung: ${t.cmdline.join(' ') || t.comm} (pid ${t.pid}) idle ${formatDuration(finding.idleMs)}`;
}
