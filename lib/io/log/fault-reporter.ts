import { accessSync, constants, existsSync, statfsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative } from 'node:path';
import type { Duty, FaultReporter } from '../../core/ports/logger.ts';

/**
 * One cause, one line. The state directory serves several duties — the records, the revive
 * marker, the health file — and when it cannot be written each of them used to say so in its
 * own words (four lines and the start line for one read-only directory). Each duty reports its
 * failure here instead: a failure inside a state directory that this user cannot write is said
 * once as that cause, with every consequence in the same line; any other failure is said once
 * in the duty's own line; each again only when what it says changes, or after the duty worked
 * again (`cleared`).
 */

const DUTIES: readonly Duty[] = ['recording', 'revive marker', 'health file'];
const CONSEQUENCES = 'not recording, no revive marker, health reports unhealthy; the work goes on';

export function createFaultReporter(
  say: (line: string) => void,
  stateDir: string,
  probe: (dir: string) => string | null = stateDirProblem,
): FaultReporter {
  const said = new Map<Duty, string>();
  return {
    fault(duty, path, line) {
      const cause = inside(stateDir, path) ? probe(stateDir) : null;
      if (cause === null) {
        if (said.get(duty) !== line) say(line);
        said.set(duty, line);
        return;
      }
      if (![...said.values()].includes(cause)) say(cause);
      for (const each of DUTIES) said.set(each, cause);
    },
    cleared: (duty) => void said.delete(duty),
  };
}

function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return !rel.startsWith('..') && !isAbsolute(rel);
}

/** Why this user cannot write (or create) the state directory, as the line to say; null when it can. */
export function stateDirProblem(dir: string): string | null {
  let existing = dir;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  if (!statSync(existing).isDirectory())
    return `state directory ${dir} cannot be created (ENOTDIR: ${existing} is not a directory): ${CONSEQUENCES}`;
  try {
    accessSync(existing, constants.W_OK | constants.X_OK);
    return fullFileSystem(dir, existing);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    const stat = statSync(existing);
    const whose = `${existing} belongs to uid ${stat.uid}, mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')}`;
    const what = existing === dir ? 'cannot be written' : 'cannot be created';
    const why = code === 'EROFS' ? 'read-only file system' : `${code} for uid ${process.geteuid?.() ?? '?'}: ${whose}`;
    return `state directory ${dir} ${what} (${why}): ${CONSEQUENCES}`;
  }
}

/**
 * Below this much free space a write of the records fails (SQLite writes pages and its WAL in
 * 4 kB and more): the directory is writable by its mode, yet nothing fits. Said as a full file
 * system, once for every duty, not as whatever SQLite or a rename reported on the way.
 */
const FULL_BELOW_BYTES = 64 * 1024;

function fullFileSystem(dir: string, existing: string): string | null {
  const { bavail, bsize } = statfsSync(existing);
  const free = bavail * bsize;
  return free < FULL_BELOW_BYTES
    ? `state directory ${dir} cannot be written (file system full: ${Math.floor(free / 1024)} kB free): ${CONSEQUENCES}`
    : null;
}
