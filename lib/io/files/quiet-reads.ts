import { readdirSync, readFileSync } from 'node:fs';
import { parseJsonOrUndefined } from '../../core/json/parse-json.ts';

/**
 * Reads where a missing or unreadable file or directory is an answer, not an error: no marker
 * yet, a process gone between listing and reading, another user's /proc entry. Callers that
 * must tell those apart read the file themselves.
 */

/** A file's text; null when it is missing or cannot be read. */
export function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** A file's JSON; undefined when it is missing, cannot be read or is not JSON. */
export function readJsonFile(path: string): unknown {
  const text = readOrNull(path);
  return text === null ? undefined : parseJsonOrUndefined(text);
}

/** The names in a directory; none when it is missing or cannot be read. */
export function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
