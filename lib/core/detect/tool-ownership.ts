import type { ProcessInfo } from '../process/process-info.ts';
import { argvProcesses, commandProcesses } from '../shell/command-processes.ts';
import type { SimpleCommand, Word } from '../shell/shell-words.ts';

/**
 * Whose is an idle process: an open tool call's, or nobody can prove whose. Only evidence makes
 * a process a tool's — never the nearness of two times alone, because a helper started a second
 * before the first tool call was killed as that tool while the real hung tool lived on (issue 25):
 *
 * - its command line: the agent's direct child whose subtree runs the tool's command, read as a
 *   shell reads it (lib/core/shell/); this is how a Codex tool is known, as Codex spawns the
 *   command before it prints `item.started`;
 * - its birth after the call's event (Claude prints `tool_use` first);
 * - its birth in the window before the call's event: the only process the agent started between
 *   its previous output and the event of a call that runs a command (Codex again, when the
 *   process is not the command as written: a shim, a wrapper, another quoting). A file edit or
 *   an MCP call starts no process of its own, so its window proves nothing.
 *
 * Anything else is unproven, with the reason. Unproven is never silently "a helper" (issue 32:
 * a Codex tool whose command did not match was born "before the call", taken for a helper, and
 * a hung run sat to its timeout with no incident): hung.ts reports it for a person instead of
 * killing it. That includes the agent's real helpers — an MCP server started before any tool
 * call that runs no open call's command: never killed by deadman itself, but when a tool call is
 * open, the agent silent past hung_timeout and nothing else explains the wait, a person hears of it.
 */

/**
 * How early a birth may be placed before the output it followed and still be "after" it: a
 * start time counts 10 ms ticks from a boot time read to 10 ms (lib/io/process/process-identity.ts),
 * and an output line is timed when deadman reads it, after the tick it waited behind — 70 ms
 * and more on a busy host. An agent that spawns its tool the moment it printed a line (the fake
 * agent does) may still be placed before that line: its incident then waits for a person, never
 * nothing. The helpers this must not take in — an MCP server started with the agent — come long
 * before the first call's window, and a second process in a window leaves both unproven.
 */
const BIRTH_RESOLUTION_MS = 100;

export interface OpenTool {
  toolId: string;
  /** Monotonic ms at which the adapter saw the tool call start. */
  startedAt: number;
  /** Monotonic ms of the agent's output before the call's event: the window a process it spawned for the call was born in. */
  windowFrom: number;
  /** The shell command the call runs, as the agent reported it; null for other tools. */
  command: string | null;
}

export type Evidence = 'command' | 'spawned after the call' | 'born in the window before its event';

export type Ownership = { kind: 'tool'; tool: OpenTool; evidence: Evidence } | { kind: 'unproven'; why: string };

export interface Suspect {
  /** The suspect's whole subtree, the suspect first. */
  subtree: readonly ProcessInfo[];
  /** When the suspect was born (monotonic ms; when first seen, where births cannot be placed). */
  bornAt: number;
  /** Its parent is the agent: the root or a process in the root's group. */
  agentChild: boolean;
}

/**
 * The owner of each suspect (every command top of the tree, busy or idle: a busy process in a
 * call's window is a candidate too, so an idle one beside it proves nothing).
 */
export function ownersOf(
  suspects: readonly Suspect[],
  openTools: readonly OpenTool[],
  firstToolAt: number | null,
): Ownership[] {
  const latest = (tools: OpenTool[]) => tools.sort((a, b) => b.startedAt - a.startedAt)[0];
  const wanted = new Map(openTools.map((t) => [t.toolId, t.command === null ? [] : commandProcesses(t.command)]));
  const owners: Array<Ownership | null> = suspects.map((suspect) => {
    const byCommand = suspect.agentChild
      ? latest(openTools.filter((t) => suspect.subtree.some((p) => runsAny(p, wanted.get(t.toolId)!))))
      : undefined;
    if (byCommand) return { kind: 'tool', tool: byCommand, evidence: 'command' };
    const after = latest(openTools.filter((t) => t.startedAt <= suspect.bornAt));
    return after ? { kind: 'tool', tool: after, evidence: 'spawned after the call' } : null;
  });
  const explainedByCommand = new Set(
    owners.flatMap((o) => (o?.kind === 'tool' && o.evidence === 'command' ? [o.tool.toolId] : [])),
  );
  const inWindow = (tool: OpenTool) =>
    suspects.flatMap((s, i) => (owners[i] === null && bornInWindow(s, tool) ? [i] : []));
  for (const tool of openTools.filter((t) => t.command !== null)) {
    const candidates = inWindow(tool);
    if (candidates.length === 1 && !explainedByCommand.has(tool.toolId))
      owners[candidates[0]!] = { kind: 'tool', tool, evidence: 'born in the window before its event' };
  }
  return owners.map(
    (owner, i) => owner ?? { kind: 'unproven', why: whyUnproven(suspects[i]!, openTools, firstToolAt, inWindow) },
  );
}

function bornInWindow(suspect: Suspect, tool: OpenTool): boolean {
  return (
    suspect.agentChild && suspect.bornAt >= tool.windowFrom - BIRTH_RESOLUTION_MS && suspect.bornAt < tool.startedAt
  );
}

function whyUnproven(
  suspect: Suspect,
  openTools: readonly OpenTool[],
  firstToolAt: number | null,
  inWindow: (tool: OpenTool) => number[],
): string {
  const ids = openTools.map((t) => t.toolId).join(', ');
  const runs = openTools.some((t) => t.command !== null) ? 'runs none of their commands' : 'their commands are unknown';
  const crowded = openTools.find((t) => t.command !== null && bornInWindow(suspect, t) && inWindow(t).length > 1);
  if (crowded)
    return `one of ${inWindow(crowded).length} processes the agent started in the window before tool call ${crowded.toolId}'s event, and ${runs}`;
  if (!suspect.agentChild) return `not started by the agent itself, born before open tool call ${ids}, and ${runs}`;
  if (firstToolAt === null || suspect.bornAt < firstToolAt)
    return `born before the run's first tool call (the agent's own helper, such as an MCP server?); open tool call ${ids}: ${runs}`;
  return `born before open tool call ${ids}, outside its window, and ${runs}`;
}

/**
 * Does this process run the command: as the command itself or any one simple command of its
 * script, as a shell running that script, or with that argv at the end of a wrapper's or an
 * interpreter's (Codex's sandbox, `timeout 60 …`, the kernel running a script by its `#!`)?
 * Argv words are compared exactly, except that a bare name or relative path stands for a longer
 * path ending in it (PATH lookup; a shim re-executes `python3` as `/root/.pyenv/…/python3`):
 * `sleep 60` is not `sleep 601`.
 */
export function runsCommand(process: Pick<ProcessInfo, 'cmdline' | 'comm'>, command: string): boolean {
  return runsAny(process, commandProcesses(command));
}

function runsAny(process: Pick<ProcessInfo, 'cmdline' | 'comm'>, wanted: readonly SimpleCommand[]): boolean {
  if (wanted.length === 0) return false;
  const argv = process.cmdline.length > 0 ? process.cmdline : [process.comm];
  return argvProcesses(argv).some((seen) => wanted.some((w) => endsWith(seen, w)));
}

function endsWith(seen: SimpleCommand, wanted: SimpleCommand): boolean {
  const offset = seen.length - wanted.length;
  return offset >= 0 && wanted.every((word, i) => sameWord(seen[offset + i]!, word));
}

/** Equal, or unknown (a `$x` in a script), or one a bare name or relative path the other's full path ends with. */
function sameWord(a: Word, b: Word): boolean {
  if (a === null || b === null || a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const relative = short.replace(/^\.\//, '');
  return !short.startsWith('/') && relative !== '' && long.endsWith(`/${relative}`);
}
