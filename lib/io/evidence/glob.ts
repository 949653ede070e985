import { lstat, readdir } from 'node:fs/promises';
import { compileGlob, type GlobSegment } from '../../core/evidence/glob-pattern.ts';

/**
 * Expands a file claim's glob by walking the directories below its literal prefix. Our own walk
 * rather than `fs.promises.glob`: that one is experimental (and warns) on the Node 22 releases
 * deadman supports, and it cannot cap the work. `**` never descends into symlinked directories
 * (no loops); the caller resolves and scope-checks every match anyway.
 */

/** A walk that visits more entries than this is refused rather than left to run unbounded. */
export const MAX_GLOB_ENTRIES = 100_000;

export class GlobTooLargeError extends Error {}

/** Absolute paths that match `pattern`, in no particular order. Missing directories match nothing. */
export async function expandGlob(pattern: string, maxEntries = MAX_GLOB_ENTRIES): Promise<string[]> {
  const { base, segments } = compileGlob(pattern);
  const matches = new Set<string>();
  let visited = 0;

  const walk = async (dir: string, index: number): Promise<void> => {
    const segment = segments[index];
    if (segment === undefined) {
      if (await exists(dir)) matches.add(dir);
      return;
    }
    if (segment.kind === 'literal') return walk(join(dir, segment.name), index + 1);
    const entries = await listDirectory(dir);
    visited += entries.length;
    if (visited > maxEntries)
      throw new GlobTooLargeError(`${pattern} visits more than ${maxEntries} directory entries; narrow the glob`);
    await Promise.all(entries.map((entry) => step(dir, entry, segment, index)));
    if (segment.kind === 'globstar') await walk(dir, index + 1);
  };

  const step = async (
    dir: string,
    entry: { name: string; isDirectory(): boolean },
    segment: GlobSegment,
    index: number,
  ) => {
    const path = join(dir, entry.name);
    if (segment.kind === 'globstar') {
      if (entry.name.startsWith('.')) return;
      if (index === segments.length - 1) matches.add(path);
      if (entry.isDirectory()) await walk(path, index);
    } else if (segment.kind === 'wildcard' && segment.matches(entry.name)) {
      if (index === segments.length - 1) matches.add(path);
      else await walk(path, index + 1);
    }
  };

  await walk(base, 0);
  return [...matches];
}

function join(dir: string, name: string): string {
  return dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`;
}

/** Entries of a directory; a path that is missing or not a directory simply has none. */
async function listDirectory(dir: string) {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (isAbsent(error)) return [];
    throw error;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if (isAbsent(error)) return false;
    throw error;
  }
}

function isAbsent(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
