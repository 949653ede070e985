import { readFileSync } from 'node:fs';

/**
 * The JSON lines another process has finished writing to `path`. Readers poll these files while
 * the writer appends, and an append can be seen half done (a 40 KB request body, or an alert whose
 * newline comes in a second write): a line counts once its newline is there. A missing file has
 * no lines yet.
 */
export function wholeJsonLines<T>(path: string): T[] {
  let written: string;
  try {
    written = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return written
    .slice(0, written.lastIndexOf('\n') + 1)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);
}
