import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A fingerprint of the agent's work tree for REPEATED_FAILURE: `git status --porcelain`, a hash
 * of `git diff HEAD` (bounded in size and time) and the size and mtime of untracked files (git
 * shows no diff for those), so a new edit, a new file or a staged change resets a failure streak. Null outside a git work tree (or without git). Taken at most every
 * `minIntervalMs`: a run of quick failures costs one pair of git calls, not one per failure.
 */
const MAX_DIFF_BYTES = 4 * 1024 * 1024;
const GIT_TIMEOUT_MS = 2_000;
const MAX_UNTRACKED = 200;

export function workspaceFingerprinter(cwd: string, minIntervalMs: number, monotonic: () => number): () => string | null {
  let last: { at: number; value: string | null } | null = null;
  return () => {
    const now = monotonic();
    if (last && now - last.at < minIntervalMs) return last.value;
    last = { at: now, value: fingerprint(cwd) };
    return last.value;
  };
}

function fingerprint(cwd: string): string | null {
  const git = (...args: string[]) => spawnSync('git', args, { cwd, timeout: GIT_TIMEOUT_MS, maxBuffer: MAX_DIFF_BYTES, stdio: ['ignore', 'pipe', 'ignore'] });
  const status = git('status', '--porcelain');
  if (status.status !== 0 || status.error) return null;
  const diff = git('diff', 'HEAD', '--no-color', '--no-ext-diff');
  const hash = createHash('sha256').update(status.stdout).update('\0').update(diff.stdout ?? '');
  const untracked = String(git('ls-files', '--others', '--exclude-standard', '-z').stdout ?? '').split('\0').filter(Boolean).slice(0, MAX_UNTRACKED);
  for (const file of untracked) {
    const stat = statSync(join(cwd, file), { throwIfNoEntry: false });
    hash.update(`\0${file}\0${stat?.size ?? -1}\0${stat?.mtimeMs ?? -1}`);
  }
  // A diff past the cap (or a repo without a commit) still counts by its status and what was read.
  return hash.digest('hex').slice(0, 16);
}
