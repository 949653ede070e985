import { lstatSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Whether a directory may hold what deadman acts on (its revive markers): deadman's uid owns it,
 * nobody else can write it, it is no symlink, and so is its parent, unless that parent is a
 * sticky directory of root's or deadman's uid such as /tmp (marker-trust.ts adds the MAC).
 */

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
  if ((stat.mode & 0o022) !== 0)
    return `${dir} is writable by group or others (mode ${(stat.mode & 0o777).toString(8)}; chmod go-w it)`;
  return null;
}
