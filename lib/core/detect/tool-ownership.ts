import type { ProcessInfo } from '../process/process-info.ts';

/**
 * Whose is an idle process: an open tool call's, a helper's the agent started itself (an MCP
 * server, a watcher), or nobody can tell. Only evidence makes a process a tool's — never the
 * nearness of two times, because a helper started a second before the first tool call was
 * killed as that tool while the real hung tool lived on (issue 25):
 *
 * - its command line: the agent's direct child whose subtree runs the tool's command (Codex
 *   spawns the command before it prints `item.started`, so this is how its tool is known in
 *   that gap);
 * - its birth: born after the tool call's start event (Claude prints `tool_use` first).
 *
 * A process born before the first tool call that runs none of the open commands is the agent's
 * helper. One born later, before every open call, with an open call whose command
 * is unknown (a file edit) might be either: ambiguous, for a person to decide.
 */

export interface OpenTool {
  toolId: string;
  /** Monotonic ms at which the adapter saw the tool call start. */
  startedAt: number;
  /** The shell command the call runs, as the agent reported it; null for other tools. */
  command: string | null;
}

export type Ownership =
  | { kind: 'tool'; tool: OpenTool; evidence: 'command' | 'spawned after the call' }
  | { kind: 'helper' }
  | { kind: 'ambiguous'; why: string };

export interface Suspect {
  /** The suspect's whole subtree, the suspect first. */
  subtree: readonly ProcessInfo[];
  /** When the suspect was born (monotonic ms; when first seen, where births cannot be placed). */
  bornAt: number;
  /** Its parent is the agent: the root or a process in the root's group. */
  agentChild: boolean;
}

export function ownerOf(suspect: Suspect, openTools: readonly OpenTool[], firstToolAt: number | null): Ownership {
  const latest = (tools: OpenTool[]) => tools.sort((a, b) => b.startedAt - a.startedAt)[0];
  const byCommand = suspect.agentChild ? latest(openTools.filter((t) => t.command !== null && suspect.subtree.some((p) => runsCommand(p, t.command!)))) : undefined;
  if (byCommand) return { kind: 'tool', tool: byCommand, evidence: 'command' };
  const before = latest(openTools.filter((t) => t.startedAt <= suspect.bornAt));
  if (before) return { kind: 'tool', tool: before, evidence: 'spawned after the call' };
  if (firstToolAt === null || suspect.bornAt < firstToolAt) return { kind: 'helper' };
  const unknown = openTools.filter((t) => t.command === null).map((t) => t.toolId);
  if (unknown.length === 0) return { kind: 'helper' };
  return { kind: 'ambiguous', why: `born before open tool call ${unknown.join(', ')}, whose command is unknown, and running none of the known ones` };
}

/** `/bin/bash -lc '…'` (Codex's wrapper) and its kin: the script inside. */
const SHELL_WRAPPER = /^(?:\S*\/)?(?:ba|z|da)?sh\s+-l?c\s+'([\s\S]*)'$/;

/**
 * Does this process run the command: as itself (the shell exec'd a simple command away), as a
 * shell's script, or inside a wrapper's command line (Claude's snapshot shell, Codex's
 * sandbox)? Quotes, spacing and the directories of paths are compared loosely (a version
 * manager's shim re-executes `python3` as `/root/.pyenv/versions/3.11.7/bin/python3`), words
 * exactly: `sleep 60` is not `sleep 601`.
 */
export function runsCommand(process: Pick<ProcessInfo, 'cmdline' | 'comm'>, command: string): boolean {
  const inner = SHELL_WRAPPER.exec(command.trim())?.[1]?.replaceAll(`'\\''`, `'`) ?? command;
  const wanted = loose(inner);
  if (wanted === '') return false;
  const line = loose(process.cmdline.join(' ') || process.comm);
  return ` ${line} `.includes(` ${wanted} `);
}

function loose(text: string): string {
  return text.replace(/['"\\]/g, '').replace(/\s+/g, ' ').replace(/(^| )[^ ]*\//g, '$1').trim();
}
