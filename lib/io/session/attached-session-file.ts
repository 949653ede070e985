import { readFileSync, statSync } from 'node:fs';
import type { AgentKind } from '../../core/adapters/program.ts';
import { openToolCalls } from '../../core/session/open-tools.ts';
import type { SessionDirs } from '../revive/session-files.ts';
import { repositoryRoot, repositorySessions } from './repository.ts';

/**
 * The session file of an attached agent: the newest root session of its agent kind in its
 * repository, written since the agent started. Looked for again on every read until one
 * appears (a new session's file comes with its first prompt), then kept.
 */

const SLACK_MS = 5_000;

export function attachedSessionFile(agent: AgentKind, cwd: string, startedAtWall: number, dirs: SessionDirs, wall: () => number) {
  const root = repositoryRoot(cwd);
  let path: string | null = null;
  return {
    get path(): string | null {
      return path;
    },
    look(): { size: number; openTools: ReturnType<typeof openToolCalls> } | null {
      path ??= repositorySessions([agent], dirs, root, wall(), 7 * 86_400_000).find((f) => f.mtimeMs >= startedAtWall - SLACK_MS)?.path ?? null;
      if (path === null) return null;
      try {
        const size = statSync(path).size;
        return { size, openTools: openToolCalls(readFileSync(path, 'utf8').split('\n')) };
      } catch {
        return null; // moved or removed: no growth seen, no tool open
      }
    },
  };
}
