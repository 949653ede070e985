import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import type { Config } from '../../core/config/config.ts';
import { writeFileAtomically } from '../atomic-write.ts';

/**
 * Validated configs kept between starts, so `deadman run --config F` (a unit's every start)
 * does not load the TOML parser and zod to reach the same result as last time. An entry is
 * used only when the file's text, the flags and deadman's build are all what they were when
 * it was validated; anything else (and every invalid config) goes through the parser and the
 * schema, so the errors a user sees are the schema's own. One entry per config file, set of
 * flags and build, replaced when the text changes; two builds side by side (an upgrade, a
 * checkout beside the installed one) each keep theirs, and only the newest few builds are kept.
 */
export interface ValidatedConfig {
  config: Config;
  /** The file held no settings (deadman says so on every start). */
  empty: boolean;
}

export interface ValidatedConfigCache {
  read(): ValidatedConfig | null;
  write(entry: ValidatedConfig): void;
}

/**
 * The cache for one config file (null: flags only) and its flags, in `<base>/config-cache/`.
 * `base` must already exist: the cache never creates state directories of its own.
 */
export function validatedConfigCache(base: string, file: string | null, text: string, flags: Record<string, unknown>): ValidatedConfigCache {
  const dir = join(base, 'config-cache');
  const flagsJson = JSON.stringify(flags);
  const build = buildIdentity();
  const job = sha256(`${file}\0${flagsJson}`).slice(0, 32);
  const entryPath = join(dir, `${job}.${sha256(build).slice(0, 16)}.json`);
  const key = sha256(`${build}\0${text}\0${flagsJson}`);
  return {
    read: () => {
      if (!isPrivateDir(dir)) return null;
      try {
        const entry = JSON.parse(readFileSync(entryPath, 'utf8')) as { key?: unknown } & ValidatedConfig;
        return entry.key === key ? { config: entry.config, empty: entry.empty === true } : null;
      } catch {
        return null;
      }
    },
    write: (entry) => {
      const text = JSON.stringify({ key, ...entry });
      // A value JSON cannot carry (Infinity, undefined: it would come back different) is never cached.
      if (!isDeepStrictEqual(JSON.parse(text), { key, ...entry })) return;
      try {
        mkdirSync(dir, { mode: 0o700 });
      } catch {
        // exists already (checked below), or cannot be made: then there is no cache
      }
      if (!isPrivateDir(dir)) return;
      try {
        // Not durable: a lost entry costs one slower start, never a wrong config.
        writeFileAtomically(entryPath, text, 0o600, { durable: false });
        forgetOldBuilds(dir, job);
      } catch {
        // a full or read-only disk: the next start validates again
      }
    },
  };
}

/** Builds of deadman whose entries are kept per job. */
const BUILDS_KEPT = 3;

/** Removes a job's entries of all but the BUILDS_KEPT most recently written builds. */
function forgetOldBuilds(dir: string, job: string): void {
  const entries = readdirSync(dir).filter((name) => name.startsWith(`${job}.`) && name.endsWith('.json'))
    .map((name) => ({ path: join(dir, name), at: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { path } of entries.slice(BUILDS_KEPT)) rmSync(path, { force: true });
}

/**
 * Only a directory of deadman's own user that no one else can write into is trusted: an entry
 * planted there would otherwise choose the command a unit runs.
 */
function isPrivateDir(dir: string): boolean {
  try {
    const stat = lstatSync(dir);
    return stat.isDirectory() && stat.uid === process.geteuid?.() && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/**
 * Which build of deadman this is: the module file holding this code (in the bundle, a chunk
 * whose name carries the hash of its contents and of the chunks it loads, the schema's among
 * them) with its size and modification time, which every build rewrites.
 */
function buildIdentity(): string {
  const path = fileURLToPath(import.meta.url);
  const { size, mtimeMs } = statSync(path);
  return `${path}:${size}:${mtimeMs}`;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
