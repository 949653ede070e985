import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FoundSession } from '../../core/revive/session-files.ts';
import { inRepository } from '../../core/session/watched-session.ts';
import { findSessionFiles, type SessionDirs } from '../revive/session-files.ts';

/**
 * The git repository a directory belongs to: the nearest ancestor holding `.git` (a directory,
 * or a file in a worktree), found without running git; the directory itself when there is none.
 * Paths are real paths, so a session's cwd compares exactly.
 */
export function repositoryRoot(cwd: string): string {
  const start = realpathOr(cwd);
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return start;
  }
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Root sessions of the agents whose workspace is in `root`, newest first; a session id picks one whatever its workspace. */
export function repositorySessions(
  agents: ReadonlyArray<'codex' | 'claude'>,
  dirs: SessionDirs,
  root: string,
  now: number,
  maxAgeMs: number,
): FoundSession[] {
  return findSessionFiles(agents, dirs, now, maxAgeMs)
    .filter((f) => f.finding.root && inRepository(f.finding.cwd, root))
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
}
