import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

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
