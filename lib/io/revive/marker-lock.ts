import { closeSync, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../../core/time/clock.ts';
import { currentOwner } from './markers.ts';
import { isOwnerAlive } from '../process/process-identity.ts';
import { ensurePrivateDir } from '../files/paths.ts';
import { untrustedDirReason } from '../files/trusted-dir.ts';
import { readJsonFile } from '../files/quiet-reads.ts';
import { pollUntil } from '../time/poll-until.ts';

/**
 * One reviver at a time over a marker directory. Two hooks (the ExecStartPost of two
 * instances sharing /var/lib/deadman, or a boot-time oneshot beside a restarting unit) that
 * both read an interrupted marker before either took it would both resume the session. The
 * lock is a file created exclusively, holding its owner's pid and start time; a lock whose
 * owner died is broken. Whoever holds it reads, decides and takes markers in one go.
 */

export type Release = () => void;

const LOCK = '.revive.lock';
/** A lock file that stays unreadable this long was left half-written by a crash. */
const UNREADABLE_GRACE_MS = 5_000;

export async function lockMarkers(markerDir: string, timeoutMs: number, clock: Clock): Promise<Release | null> {
  ensurePrivateDir(markerDir);
  // No marker there is read or written (marker-trust.ts): nothing to serialise, and deadman
  // writes nothing at all into a directory others control, not even its lock.
  if (untrustedDirReason(markerDir) !== null) return () => {};
  const path = join(markerDir, LOCK);
  const owner = currentOwner();
  return pollUntil(() => tryLock(path, owner, clock), { timeoutMs, everyMs: 50, monotonic: () => clock.monotonic() });
}

/** The lock, taken now (breaking a stale one first), or null while a live owner holds it. */
function tryLock(path: string, owner: ReturnType<typeof currentOwner>, clock: Clock): Release | null {
  for (;;) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, JSON.stringify(owner));
      closeSync(fd);
      return () => releaseIfMine(path, owner.pid);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (!isStale(path, clock.wall())) return null;
    unlinkQuietly(path);
  }
}

function lockOwner(path: string): { pid: number; startTime: number | null } | null {
  const owner = readJsonFile(path) as { pid?: unknown; startTime?: unknown } | null | undefined;
  return typeof owner?.pid === 'number'
    ? { pid: owner.pid, startTime: typeof owner.startTime === 'number' ? owner.startTime : null }
    : null;
}

/** The owner died, or the file stayed unreadable past the grace (a write cut by a crash). */
function isStale(path: string, now: number): boolean {
  const owner = lockOwner(path);
  if (owner !== null) return !isOwnerAlive(owner);
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat === undefined || now - stat.mtimeMs > UNREADABLE_GRACE_MS;
}

function releaseIfMine(path: string, pid: number): void {
  if (lockOwner(path)?.pid === pid) unlinkQuietly(path);
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
