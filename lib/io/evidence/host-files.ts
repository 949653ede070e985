import { open, realpath, stat } from 'node:fs/promises';
import type { Candidate, FileSample, PresentFile } from '../../core/evidence/evidence.ts';
import { expandGlob } from './glob.ts';

/**
 * Where a file claim's facts come from: this host's filesystem (below), or a job's container
 * through its engine (container-files.ts). The judging (lib/core/evidence) is the same for both.
 */
export interface FileFacts {
  /** Absolute paths that match a glob; a missing directory matches nothing. */
  expandGlob(pattern: string): Promise<string[]>;
  /**
   * Each path's facts after symlinks are resolved, in the order given, and the root's real path
   * (the root as written when it cannot be resolved: the scope check then judges the written form).
   */
  inspect(root: string, paths: readonly string[]): Promise<InspectedPaths>;
  /** The whole file when it is at most two samples long, else its first and last `sampleBytes`. */
  readSample(file: PresentFile, sampleBytes: number): Promise<FileSample>;
}

export interface InspectedPaths {
  resolvedRoot: string;
  candidates: Candidate[];
}

export const ERRNO_WORDS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ELOOP: 'too many levels of symbolic links',
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EHOSTUNREACH: 'host unreachable',
};

export const hostFiles: FileFacts = {
  expandGlob: (pattern) => expandGlob(pattern),
  inspect: async (root, paths) => {
    const [resolvedRoot, candidates] = await Promise.all([
      realpath(root).catch(() => root),
      Promise.all(paths.map(inspect)),
    ]);
    return { resolvedRoot, candidates };
  },
  readSample,
};

async function inspect(path: string): Promise<Candidate> {
  try {
    const resolved = await realpath(path);
    const info = await stat(resolved);
    return { path, state: 'present', resolved, isFile: info.isFile(), size: info.size, mtimeMs: info.mtimeMs };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { path, state: 'missing' };
    return { path, state: 'error', error: ERRNO_WORDS[code ?? ''] ?? code ?? (error as Error).message.split('\n')[0]! };
  }
}

async function readSample(file: PresentFile, sampleBytes: number): Promise<FileSample> {
  const handle = await open(file.resolved, 'r');
  try {
    const read = async (position: number, length: number) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, position);
      return buffer.toString('utf8', 0, bytesRead);
    };
    const { size } = await handle.stat();
    if (size <= 2 * sampleBytes) return { head: await read(0, size), tail: null };
    return { head: await read(0, sampleBytes), tail: await read(size - sampleBytes, sampleBytes) };
  } finally {
    await handle.close();
  }
}

/** This host's time zone ($TZ, else the system's): the day of files on this host. */
export function hostTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
