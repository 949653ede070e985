import { accessSync, constants, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Whether deadman could create and write `dir` (the state directory, the database's directory),
 * judged without creating anything: the directory itself if it exists, else its nearest existing
 * ancestor. Returns one line naming the path and the fix, or null when it would work.
 */
export function unwritableDirProblem(dir: string, what: string, fix: string): string | null {
  let probe = dir;
  while (!exists(probe) && dirname(probe) !== probe) probe = dirname(probe);
  try {
    if (!statSync(probe).isDirectory()) return `${what} ${dir}: ${probe} is not a directory; ${fix}`;
    accessSync(probe, constants.W_OK | constants.X_OK);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    const verb = probe === dir ? 'is not writable' : `cannot be created: ${probe} is not writable`;
    return `${what} ${dir} ${verb} (${code}); ${fix}`;
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}
