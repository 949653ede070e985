import { renameSync } from 'node:fs';
import { directoryMac, directoryMacProblem } from '../files/directory-key.ts';

/**
 * Why deadman may act on a marker: it lies in a directory only deadman's uid can write (its
 * own, not group/world-writable, not a symlink, and so is its parent, the state directory,
 * unless that parent is a sticky directory of root's or deadman's uid such as /tmp),
 * the file is deadman's uid's and opened without following symlinks, and it carries an
 * HMAC-SHA256 made with this directory's key (directory-key.ts). A marker edited or
 * forged by anyone who cannot read the key is refused: it is moved aside, never executed.
 * The directory rules are trusted-dir.ts's.
 */

const KEY_FILE = '.marker-key';

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
