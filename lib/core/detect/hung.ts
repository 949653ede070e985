import { formatDuration } from '../time/duration.ts';
import { processKey, type Observation, type ProcessInfo } from '../process/process-info.ts';
import type { TreeProgress } from './process-progress.ts';
import { ownersOf, type Evidence, type OpenTool, type Ownership } from './tool-ownership.ts';

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
  /** When the run's first tool call started: a process born before it may be the agent's own helper (said in why it is unproven). */
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
  /** What proves the target is that call's. */
  evidence: Evidence | null;
  /**
   * Why nobody can tell whose the idle process is, when nobody can — each idle candidate with
   * its reason: a person decides, deadman does not kill it by itself.
   */
  unproven: string | null;
  reason: string;
}

/** How many unproven candidates a finding names. */
const NAMED_CANDIDATES = 5;

/**
 * Never silent: with an agent adapter, when the agent is quiet past hung_timeout with a tool call
 * open, an idle subtree proven to be an open call's is the target; failing that, when some open
 * call has no process proven to be its, the idle subtrees nothing places are reported as
 * unproven (AWAITING_APPROVAL: a person decides). Only when every open call is explained by a
 * process of its own — busy, so working, or idle and then found first — is an unplaced idle
 * subtree (a helper beside a working tool) no finding.
 */
export function findHungSubtree(
  observation: Observation,
  progress: TreeProgress,
  options: HungOptions,
): HungFinding | null {
  const now = observation.at;
  if (now - options.lastOutputAt < options.hungTimeoutMs) return null;
  if (options.requireOpenTool && options.openTools.length === 0) return null;
  const tree = new Tree(observation);
  const tops = [...new Set(tree.leaves().flatMap((leaf) => tree.commandTop(leaf) ?? []))];
  const owners = ownersOf(
    tops.map((top) => ({
      subtree: tree.subtree(top),
      bornAt: progress.processes.get(processKey(top))?.bornAt ?? now,
      agentChild: tree.agentChild(top),
    })),
    options.openTools,
    options.firstToolAt,
  );
  const explained = new Set(owners.flatMap((o) => (o.kind === 'tool' ? [o.tool.toolId] : [])));
  const unexplained = options.openTools.some((t) => !explained.has(t.toolId));
  const findings = tops
    .map((top, i) => judge(top, owners[i]!, tree, progress, options, now))
    .filter((f): f is HungFinding => f !== null)
    .filter((f) => f.toolId !== null || !options.requireOpenTool || unexplained);
  const rank = (f: HungFinding) => (f.evidence ? EVIDENCE_RANK[f.evidence] : f.unproven === null ? 1 : 0);
  findings.sort((a, b) => rank(b) - rank(a) || b.idleMs - a.idleMs || a.target.pid - b.target.pid);
  const best = findings[0];
  if (!best?.unproven) return best ?? null;
  const named = findings
    .slice(0, NAMED_CANDIDATES)
    .map((f) => `pid ${f.target.pid} (${shortCommand(f.target)}): ${f.unproven}`);
  const more = findings.length > NAMED_CANDIDATES ? `; and ${findings.length - NAMED_CANDIDATES} more` : '';
  return { ...best, unproven: `nothing proves whose the idle process is — ${named.join('; ')}${more}` };
}

/** A command match is the strongest evidence, a birth after the call the next, the window's last; unproven after all. */
const EVIDENCE_RANK: Record<Evidence, number> = {
  command: 4,
  'spawned after the call': 3,
  'born in the window before its event': 2,
};

function judge(
  target: ProcessInfo,
  owner: Ownership,
  tree: Tree,
  progress: TreeProgress,
  options: HungOptions,
  now: number,
): HungFinding | null {
  const subtree = tree.subtree(target);
  if (subtree.some((p) => p.listening || options.baseline.has(processKey(p)))) return null;
  if (subtree.some((p) => options.ignore.some((re) => re.test(p.cmdline.join(' ') || p.comm)))) return null;
  const targetProgress = progress.processes.get(processKey(target));
  if (!targetProgress) return null;
  // The target's progress covers its whole subtree.
  const idleMs = now - Math.max(options.lastOutputAt, targetProgress.lastProgressAt);
  if (idleMs < options.hungTimeoutMs) return null;
  const tool = owner.kind === 'tool' ? owner : null;
  // Without an agent adapter there are no tool calls to prove anything against: every idle subtree is a target.
  const unproven = owner.kind === 'unproven' && options.requireOpenTool ? owner.why : null;
  return {
    target,
    subtree,
    idleMs,
    toolId: tool?.tool.toolId ?? null,
    evidence: tool?.evidence ?? null,
    unproven,
    reason: explain(target, subtree, idleMs, tool, unproven, now),
  };
}

function shortCommand(target: ProcessInfo): string {
  const command = target.cmdline.join(' ') || target.comm;
  return command.length > 80 ? `${command.slice(0, 77)}...` : command;
}

function explain(
  target: ProcessInfo,
  subtree: ProcessInfo[],
  idleMs: number,
  tool: { tool: OpenTool; evidence: Evidence } | null,
  unproven: string | null,
  now: number,
): string {
  const leader = target.sid === target.pid ? ', session leader' : target.pgid === target.pid ? ', group leader' : '';
  const others = subtree.length - 1;
  const below = others === 0 ? '' : ` and ${others} descendant${others === 1 ? '' : 's'}`;
  const call = tool
    ? `; open tool call ${tool.tool.toolId} since ${formatDuration(now - tool.tool.startedAt)} (by its ${tool.evidence})`
    : unproven
      ? `; whose it is is unproven: ${unproven}`
      : '';
  return `${shortCommand(target)} (pid ${target.pid}${leader})${below} idle for ${formatDuration(idleMs)}: CPU and I/O under the activity floors, no output from the root${call}`;
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
