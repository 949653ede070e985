import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { AgentKind } from '../../core/adapters/program.ts';
import { readThreadChildren } from '../process/proc-read.ts';
import { readProcStat } from '../process/process-identity.ts';
import { openFilesOf } from './session-file-holders.ts';
import type { SessionDirs } from '../revive/session-files.ts';
import { readJsonFile } from '../files/quiet-reads.ts';

/**
 * What ties a session to one agent process — never "the newest session file in the
 * repository": two agents started a second apart in one repository each took the other's
 * (issue 25). The agent (its pid, still with its start time) or a process below it must say so:
 *
 * - it holds the session file open (Codex's rollout writer keeps its file open for the session);
 * - Claude Code's running-process registry, `<config dir>/sessions/<pid>.json`, names the session
 *   for that pid, with a `startedAt` no older than the agent;
 * - a tool below it carries the session in its environment (`CODEX_THREAD_ID`,
 *   `CLAUDE_CODE_SESSION_ID`).
 *
 * Linux /proc; elsewhere nothing is evidence and no session is taken.
 */

export interface AgentIdentity {
  pid: number;
  startTime: number;
}

export interface SessionEvidence {
  /** Session files the agent's processes hold open (as /proc/<pid>/fd shows them). */
  openFiles: Set<string>;
  /** Session ids its registry entry or its tools' environments name. */
  sessionIds: Set<string>;
}

/** Claude's registry entry; `startedAt` as epoch ms or an ISO time. */
const REGISTRY_ENTRY = z.object({
  pid: z.number(),
  sessionId: z.string(),
  startedAt: z.union([z.number(), z.string().transform((s) => Date.parse(s))]),
});
const SESSION_ENV: Record<AgentKind, string> = { codex: 'CODEX_THREAD_ID', claude: 'CLAUDE_CODE_SESSION_ID' };
/** A registry entry may be written a moment before /proc's start time says the process began (clock granularity). */
const REGISTRY_SLACK_MS = 1_000;

/** Evidence from the agent and its descendants; empty once the agent is gone or its pid was reused. */
export function sessionEvidence(
  agent: AgentIdentity,
  kind: AgentKind,
  dirs: SessionDirs,
  startedAtWall: number,
): SessionEvidence {
  const evidence: SessionEvidence = { openFiles: new Set(), sessionIds: new Set() };
  if (readProcStat(agent.pid)?.startTime !== agent.startTime) return evidence;
  for (const pid of withDescendants(agent.pid)) {
    for (const file of openFilesOf(pid)) if (file.endsWith('.jsonl')) evidence.openFiles.add(file);
    const fromEnv = pid === agent.pid ? null : environmentValue(pid, SESSION_ENV[kind]);
    if (fromEnv) evidence.sessionIds.add(fromEnv);
    if (kind === 'claude') {
      const entry = registryEntry(join(dirs.claudeConfigDir, 'sessions', `${pid}.json`));
      // An entry older than the agent is a dead process's whose pid came round again.
      if (entry?.pid === pid && entry.startedAt >= startedAtWall - REGISTRY_SLACK_MS)
        evidence.sessionIds.add(entry.sessionId);
    }
  }
  return evidence;
}

function withDescendants(root: number): number[] {
  const found = [root];
  for (let i = 0; i < found.length && found.length < 1_000; i++)
    found.push(...readThreadChildren(found[i]!).filter((pid) => !found.includes(pid)));
  return found;
}

function environmentValue(pid: number, name: string): string | null {
  try {
    const entry = readFileSync(`/proc/${pid}/environ`, 'latin1')
      .split('\0')
      .find((e) => e.startsWith(`${name}=`));
    return entry?.slice(name.length + 1) || null;
  } catch {
    return null; // gone, or another user's
  }
}

function registryEntry(path: string): z.infer<typeof REGISTRY_ENTRY> | null {
  const parsed = REGISTRY_ENTRY.safeParse(readJsonFile(path));
  return parsed.success ? parsed.data : null;
}
