import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AgentKind } from '../../core/adapters/program.ts';
import { openToolCalls } from '../../core/session/open-tools.ts';
import type { FoundSession } from '../../core/revive/session-files.ts';
import type { SessionDirs } from '../revive/session-files.ts';
import { repositoryRoot, repositorySessions } from './repository.ts';
import { sessionEvidence, type AgentIdentity } from './agent-session-evidence.ts';

/**
 * The session file of an attached agent: a root session of its agent kind in its repository,
 * written since the agent started, that the agent's own process ties to itself
 * (agent-session-evidence.ts: it holds the file open, its registry entry or its tools name the
 * session) — never merely the newest, which was another agent's when two started a second apart.
 * Looked for again on every read until one is tied (a new session's file comes with its first
 * prompt), then kept.
 */

const SLACK_MS = 5_000;

export function attachedSessionFile(
  agent: AgentKind,
  identity: AgentIdentity,
  cwd: string,
  startedAtWall: number,
  dirs: SessionDirs,
  wall: () => number,
) {
  const root = repositoryRoot(cwd);
  let found: FoundSession | null = null;
  const tiedSession = (): FoundSession | null => {
    const written = repositorySessions([agent], dirs, root, wall(), 7 * 86_400_000).filter(
      (f) => f.mtimeMs >= startedAtWall - SLACK_MS,
    );
    if (written.length === 0) return null;
    const { openFiles, sessionIds } = sessionEvidence(identity, agent, dirs, startedAtWall);
    return written.find((f) => openFiles.has(resolve(f.path)) || sessionIds.has(f.finding.sessionId)) ?? null;
  };
  return {
    get path(): string | null {
      return found?.path ?? null;
    },
    /** The session's id, as the file names it (the agent's stdout is not deadman's to read it from). */
    get sessionId(): string | null {
      return found?.finding.sessionId ?? null;
    },
    look(): { size: number; openTools: ReturnType<typeof openToolCalls> } | null {
      found ??= tiedSession();
      if (found === null) return null;
      const { path } = found;
      try {
        const size = statSync(path).size;
        return { size, openTools: openToolCalls(readFileSync(path, 'utf8').split('\n')) };
      } catch {
        return null; // moved or removed: no growth seen, no tool open
      }
    },
  };
}
