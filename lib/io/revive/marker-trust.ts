import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { writeSyncAndClose } from '../atomic-write.ts';

/**
 * Why deadman may act on a marker: it lies in a directory only deadman's uid can write (its
 * own, not group/world-writable, not a symlink, and so is its parent, the state directory,
 * unless that parent is a sticky directory of root's or deadman's uid such as /tmp),
 * the file is deadman's uid's and opened without following symlinks, and it carries an
 * HMAC-SHA256 made with this directory's key (0600, created on first use). A marker edited or
 * forged by anyone who cannot read the key is refused: it is moved aside, never executed.
 */

const KEY_FILE = '.marker-key';
const STICKY = 0o1000;
const KEY_BYTES = 32;
const euid = () => process.geteuid?.() ?? -1;

/** Why markers in this directory cannot be trusted, or null. A directory that does not exist yet is fine. */
export function untrustedDirReason(markerDir: string): string | null {
  return untrustedAsParentReason(dirname(markerDir)) ?? untrustedOwnDirReason(markerDir, false);
}

/** Why `dir` may not hold a markers directory (see untrustedDirReason), or null. */
export function untrustedAsParentReason(dir: string): string | null {
  return untrustedOwnDirReason(dir, true);
}

function untrustedOwnDirReason(dir: string, asParent: boolean): string | null {
  let stat;
  try {
    stat = lstatSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return `${dir} cannot be examined (${(error as NodeJS.ErrnoException).code})`;
  }
  if (stat.isSymbolicLink()) return `${dir} is a symlink`;
  if (!stat.isDirectory()) return `${dir} is not a directory`;
  // A sticky directory of root's or ours (/tmp) as the parent: nobody else can rename or
  // remove the markers directory inside it, which is all the parent has to guarantee.
  if (asParent && (stat.mode & STICKY) !== 0 && (stat.uid === 0 || stat.uid === euid())) return null;
  if (stat.uid !== euid()) return `${dir} belongs to uid ${stat.uid}, not to deadman's uid ${euid()}`;
  if ((stat.mode & 0o022) !== 0) return `${dir} is writable by group or others (mode ${(stat.mode & 0o777).toString(8)}; chmod go-w it)`;
  return null;
}

/** Opens a file in the marker directory without following a symlink; refuses one of another uid. */
export function openOwnFile(path: string): { fd: number; size: number } {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  const stat = fstatSync(fd);
  if (!stat.isFile() || stat.uid !== euid()) {
    closeSync(fd);
    // Not a file is damage (EISDIR reads as "cannot be read"); another uid's file is a forgery to refuse.
    if (!stat.isFile()) throw Object.assign(new Error('is not a regular file'), { code: 'EISDIR' });
    throw Object.assign(new Error(`belongs to uid ${stat.uid}, not to deadman's uid ${euid()}`), { code: 'EUNTRUSTED' });
  }
  return { fd, size: stat.size };
}

/**
 * The directory's MAC key, created 0600 on first write; null when a reader finds none (then
 * no marker there can be authentic). Throws (EUNTRUSTED) when the key file is not private.
 */
function markerKey(markerDir: string, create: boolean): Buffer | null {
  const path = join(markerDir, KEY_FILE);
  try {
    const { fd, size } = openOwnFile(path);
    try {
      const mode = fstatSync(fd).mode & 0o777;
      if ((mode & 0o077) !== 0 || size !== KEY_BYTES) throw Object.assign(new Error(`key ${path} is not a private ${KEY_BYTES}-byte file`), { code: 'EUNTRUSTED' });
      const key = Buffer.alloc(KEY_BYTES);
      readSync(fd, key, 0, KEY_BYTES, 0);
      return key;
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return create ? createKey(path) : null;
}

function createKey(path: string): Buffer {
  const key = randomBytes(KEY_BYTES);
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    // Another deadman created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return markerKey(dirname(path), false)!;
    throw error;
  }
  writeSyncAndClose(fd, key);
  return key;
}

const hmac = (key: Buffer, macInput: string) => createHmac('sha256', key).update(macInput).digest();

/** The MAC a marker written now carries (the key is created on first use). */
export function markerMac(markerDir: string, macInput: string): string {
  return hmac(markerKey(markerDir, true)!, macInput).toString('hex');
}

/** Why the marker's MAC does not hold (one phrase), or null when it does. */
export function macProblem(markerDir: string, macInput: string, mac: unknown): string | null {
  let key: Buffer | null;
  try {
    key = markerKey(markerDir, false);
  } catch (error) {
    return `cannot be checked: ${(error as Error).message}`;
  }
  if (key === null) return `cannot be checked: ${join(markerDir, KEY_FILE)} is missing`;
  const authentic = typeof mac === 'string' && /^[0-9a-f]{64}$/.test(mac) && timingSafeEqual(hmac(key, macInput), Buffer.from(mac, 'hex'));
  return authentic ? null : 'was not written by deadman or was edited since (its MAC does not match this state directory\'s key)';
}

/** Moves a refused marker out of the way (`<name>.json.refused-<time>`), so it is looked at by a person, not read again. */
export function moveAside(path: string, now: number): string | null {
  const aside = `${path}.refused-${new Date(now).toISOString().replace(/[:.]/g, '-')}`;
  try {
    renameSync(path, aside);
    return aside;
  } catch {
    return null;
  }
}
