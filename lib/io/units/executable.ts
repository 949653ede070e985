import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * `command -v` for unit generation: the absolute path a program name resolves to in a PATH
 * list, or null. A name containing a slash is checked as it is, like a shell does.
 */
export function findExecutable(program: string, pathList: string): string | null {
  if (program.includes('/')) return isExecutableFile(program) ? program : null;
  for (const dir of pathList.split(delimiter)) {
    if (!dir.startsWith('/')) continue; // a relative PATH entry would mean something else under a service manager
    const candidate = join(dir, program);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
