import { lstatSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { directoryMac, directoryMacProblem } from '../directory-key.ts';

/**
 * Why deadman may act on a marker: it lies in a directory only deadman's uid can write (its
 * own, not group/world-writable, not a symlink, and so is its parent, the state directory,
 * unless that parent is a sticky directory of root's or deadman's uid such as /tmp),
 * the file is deadman's uid's and opened without following symlinks, and it carries an
 * HMAC-SHA256 made with this directory's key (directory-key.ts). A marker edited or
 * forged by anyone who cannot read the key is refused: it is moved aside, never executed.
 */

const KEY_FILE = '.marker-key';
const STICKY = 0o1000;
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

/** The MAC a marker written now carries (the directory's key is created on first use). */
export function markerMac(markerDir: string, macInput: string): string {
  return directoryMac(markerDir, KEY_FILE, macInput);
}

/** Why the marker's MAC does not hold (one phrase), or null when it does. */
export function macProblem(markerDir: string, macInput: string, mac: unknown): string | null {
  return directoryMacProblem(markerDir, KEY_FILE, macInput, mac);
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
