import type { Candidate, FileSample, PresentFile } from '../../core/evidence/evidence.ts';
import { findArgv, headArgv, realpathArgv, statArgv, tailArgv } from '../../core/evidence/container-commands.ts';
import { parseFind, parseRealpath, parseStat } from '../../core/evidence/container-output.ts';
import { compileGlob, matchesGlob } from '../../core/evidence/glob-pattern.ts';
import type { FileFacts } from './host-files.ts';
import { MAX_GLOB_ENTRIES, GlobTooLargeError } from './glob.ts';
import type { ReachedContainer } from './container-engine.ts';

/**
 * A file claim's facts read inside a job's container (`container = "NAME"`): every path is a path
 * in the container, resolved there (so the path scope judges the container's paths), and the
 * clock is the container's. Each fact is one exec of a read-only command; a failed one throws its
 * one line, which makes the claim unknown, never alive.
 */

export function containerFiles(container: ReachedContainer): FileFacts {
  const { exec, name } = container;
  const failure = (what: string, stderr: string) =>
    new Error(`${what} in container ${name} failed: ${stderr.trim().split('\n')[0] || 'no output'}`);

  return {
    expandGlob: async (pattern) => {
      const glob = compileGlob(pattern);
      const result = await exec(findArgv(glob));
      const listing = parseFind(result.code, result.stdout, result.stderr, MAX_GLOB_ENTRIES);
      if ('tooMany' in listing)
        throw new GlobTooLargeError(
          `${pattern} lists more than ${listing.tooMany} entries in container ${name}; narrow the glob`,
        );
      if ('error' in listing) throw new Error(`${listing.error} in container ${name}`);
      return listing.paths.filter((path) => matchesGlob(glob, path));
    },

    // Two execs: stat for every path, then realpath for the root and the paths that are there
    // (with none there, the root's real path judges nothing).
    inspect: async (root, paths) => {
      const stat = paths.length === 0 ? null : await exec(statArgv(paths));
      const facts = stat === null ? [] : parseStat(paths, stat.stdout, stat.stderr);
      const present = facts.filter((f) => f.state === 'present');
      const withReal = (realOf: ReadonlyMap<string, string>) =>
        facts.map((f): Candidate => (f.state === 'present' ? { ...f, resolved: realOf.get(f.path)! } : f));
      if (present.length === 0) return { resolvedRoot: root, candidates: withReal(new Map()) };
      const real = await exec(realpathArgv([root, ...present.map((f) => f.path)]));
      const resolved = real.code === 0 ? parseRealpath(real.stdout, present.length + 1) : null;
      if (resolved === null) throw failure('realpath', real.stderr || 'a path changed while it was inspected');
      const candidates = withReal(new Map(present.map((f, i) => [f.path, resolved[i + 1]!])));
      return { resolvedRoot: resolved[0]!, candidates };
    },

    readSample: async (file: PresentFile, sampleBytes: number): Promise<FileSample> => {
      const read = async (argv: ReturnType<typeof headArgv>) => {
        const result = await exec(argv);
        if (result.code !== 0) throw failure(argv[0], result.stderr);
        return result.stdout;
      };
      if (file.size <= 2 * sampleBytes) return { head: await read(headArgv(file.resolved, file.size)), tail: null };
      return {
        head: await read(headArgv(file.resolved, sampleBytes)),
        tail: await read(tailArgv(file.resolved, sampleBytes)),
      };
    },
  };
}
