import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { GitStatusShell, UNANSWERED } from './git-status-shell.ts';
import { unmeasuredWorkspace } from '../../core/detect/unmeasured-workspace.ts';

/**
 * A fingerprint of the agent's work tree for REPEATED_FAILURE and NO_PROGRESS, taken fresh at
 * each tool call's end: an agent that edits a file and reruns the failing test 0.3 s later has
 * changed its workspace, and a fingerprint cached for seconds told it otherwise (issue 25).
 *
 * Cheap by using what git already keeps: `git status` (the index's stat cache: it reads no file
 * whose stat did not change) lists every changed and untracked path, and each listed path's
 * size and mtime (nanoseconds) tell one edit of an already-changed file from the next. No diff
 * and no hash of file contents. `--no-optional-locks`: the agent's own git must never meet
 * deadman's index.lock. Null outside a git work tree (or without git).
 *
 * A flood of tool results (thousands a second) must not become thousands of git runs: past
 * MAX_PER_SECOND in a second the answer is unmeasured (core/detect/unmeasured-workspace.ts),
 * which the detectors neither count nor reset on.
 *
 * git is not waited for, and not forked by deadman (git-status-shell.ts): the answer comes as a
 * promise. spawnSync held the event loop, and with it the output path and the watchdog, for the
 * fork and the whole git run (12–15 ms in deadman's own repository on a loaded host, 20 times a
 * second under a flood). One git runs at a time, and the next starts when it ends: the same
 * moments at which spawnSync read the work tree (the loop handled the next tool end only once
 * the last git returned), and no pile of concurrent gits on the agent's cores.
 */
const GIT_TIMEOUT_MS = 2_000;
const MAX_STATUS_BYTES = 4 * 1024 * 1024;
const MAX_STATTED = 500;
export const MAX_PER_SECOND = 20;
/**
 * Gits asked for and not yet answered: only the one running; a tool end while it runs is
 * unmeasured. An unbounded queue grew by the second under a flood of tool ends and every tick
 * waited for it (the watchdog withheld for 95 s, issue 38). And a git that waited behind
 * another read the work tree late: at a load of 10 a git took ~370 ms, so the git for one rerun
 * ran after the agent's next edits, the next rerun's saw the same tree, and two reruns with
 * edits between them read as one unchanged workspace (REPEATED_FAILURE, run-fast-edits).
 */
const MAX_ASKED = 1;

/**
 * Each answer is a fingerprint, or the promise of one while git runs (the loop's WorkspaceAnswer).
 * It stands for the moment it was asked (the tool's end), so a changed path whose mtime is later
 * than that moment makes it unmeasured: git and the stats read the tree a few hundred ms later on
 * a loaded host, and an agent that edits right after a failing rerun had that edit counted as
 * before the rerun — the next rerun then saw "the same" tree (REPEATED_FAILURE, run-fast-edits).
 */
export function workspaceFingerprinter(
  cwd: string,
  clock: { monotonic(): number; wall(): number },
): () => string | null | Promise<string | null> {
  let windowStart = -Infinity;
  let taken = 0;
  let unmeasured = 0;
  let asked = 0;
  const git = gitShellOf(cwd);
  return () => {
    const now = clock.monotonic();
    if (now - windowStart >= 1_000) [windowStart, taken] = [now, 0];
    // At once, not as a promise: under a flood this is nearly every tool end, and a promise waits out the whole parse slice.
    if (++taken > MAX_PER_SECOND || asked >= MAX_ASKED) return unmeasuredWorkspace(++unmeasured);
    asked++;
    const askedAtNs = BigInt(Math.floor(clock.wall())) * 1_000_000n;
    // A git that ran out of time on a loaded host is unmeasured too: as null ("outside git") two
    // reruns with an edit between them read as an unchanged workspace (REPEATED_FAILURE).
    return git
      .status()
      .then((status) => {
        if (status === null) return null;
        return (
          (status === UNANSWERED ? null : fingerprint(cwd, status, askedAtNs)) ?? unmeasuredWorkspace(++unmeasured)
        );
      })
      .finally(() => asked--);
  };
}

/** One shell per work tree for the whole deadman process: each pass of a run makes its own fingerprinter. */
const shells = new Map<string, GitStatusShell>();
function gitShellOf(cwd: string): GitStatusShell {
  let shell = shells.get(cwd);
  if (!shell) shells.set(cwd, (shell = new GitStatusShell(cwd, GIT_TIMEOUT_MS, MAX_STATUS_BYTES)));
  return shell;
}

/** The fingerprint of git's answer and the changed paths' stats; null when a path changed after `askedAtNs` (wall clock). */
function fingerprint(cwd: string, status: Buffer, askedAtNs: bigint): string | null {
  const hash = createHash('sha256').update(status);
  for (const path of changedPaths(status.toString('utf8')).slice(0, MAX_STATTED)) {
    const stat = statSync(join(cwd, path), { bigint: true, throwIfNoEntry: false });
    if (stat && stat.mtimeNs > askedAtNs) return null;
    hash.update(`\0${path}\0${stat?.size ?? -1n}\0${stat?.mtimeNs ?? -1n}`);
  }
  return hash.digest('hex').slice(0, 16);
}

/** The paths of `status --porcelain -z`: `XY path`, a rename's original path following as its own entry. */
function changedPaths(porcelain: string): string[] {
  const entries = porcelain.split('\0');
  const paths: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    if (entry.length < 4) continue;
    paths.push(entry.slice(3));
    if (entry[0] === 'R' || entry[0] === 'C') i++;
  }
  return paths;
}
