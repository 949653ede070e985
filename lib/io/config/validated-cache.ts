import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import type { Config } from '../../core/config/config.ts';
import { writeFileAtomically } from '../files/atomic-write.ts';
import { directoryMac, directoryMacProblem } from '../files/directory-key.ts';
import { readJsonFile } from '../files/quiet-reads.ts';

/**
 * Validated configs kept between starts, so `deadman run --config F` (a unit's every start)
 * does not load the TOML parser and zod to reach the same result as last time. An entry can
 * only repeat what the file says: it is used only when it carries an HMAC, made with the cache
 * directory's own key (directory-key.ts, readable by deadman's uid alone), over the file's path,
 * owner and text, the flags, deadman's build and the validated result itself. An entry edited,
 * planted or copied from another file is refused (said in one line) and the file parsed again.
 * A config file of another uid than deadman's is never served from the cache: deadman's own uid
 * holds the key, and could otherwise make root's 0644 file say anything (a unit's `User=`).
 * Invalid configs are never kept, so every error a user sees is the schema's own. One entry
 * per config file, set of flags and build; only the newest few builds are kept.
 */
export interface ValidatedConfig {
  config: Config;
  /** The file held no settings (deadman says so on every start). */
  empty: boolean;
  /** The top-level keys the file and the flags set (the rest are defaults). */
  chosen: string[];
}

export interface ValidatedConfigCache {
  read(): ValidatedConfig | null;
  write(entry: ValidatedConfig): void;
}

/** What was read from the config file (null: flags only). */
export interface ConfigSource {
  file: string | null;
  text: string;
  /** Owner of the file that was read. */
  uid: number | null;
}

const KEY_FILE = '.cache-key';
const euid = () => process.geteuid?.() ?? -1;

/**
 * The cache for one config file and its flags, in `<base>/config-cache/`; `warn` hears an entry
 * that was refused. `base` must already exist: the cache never creates state directories of its own.
 */
export function validatedConfigCache(
  base: string,
  source: ConfigSource,
  flags: Record<string, unknown>,
  warn: (line: string) => void,
): ValidatedConfigCache {
  const dir = join(base, 'config-cache');
  const flagsJson = JSON.stringify(flags);
  const build = buildIdentity();
  const job = sha256(`${source.file}\0${flagsJson}`).slice(0, 32);
  const entryPath = join(dir, `${job}.${sha256(build).slice(0, 16)}.json`);
  const macInput = (payload: string) =>
    [build, source.file, source.uid, sha256(source.text), flagsJson, payload].join('\0');
  // Another uid's file: that uid, not deadman's, decides what it says.
  const usable = source.file === null || source.uid === euid();
  return {
    read: () => {
      if (!usable || !isPrivateDir(dir)) return null;
      const entry = readJsonFile(entryPath) as { mac?: unknown; payload?: unknown } | null | undefined;
      if (entry === undefined) return null;
      const payload = typeof entry?.payload === 'string' ? entry.payload : '';
      const problem = directoryMacProblem(dir, KEY_FILE, macInput(payload), entry?.mac);
      if (problem !== null) {
        warn(`config cache entry ${entryPath} ${problem}: not used; ${source.file ?? 'the flags'} validated again`);
        return null;
      }
      return JSON.parse(payload) as ValidatedConfig;
    },
    write: (entry) => {
      const payload = JSON.stringify(entry);
      // A value JSON cannot carry (Infinity, undefined: it would come back different) is never cached.
      if (!usable || !isDeepStrictEqual(JSON.parse(payload), entry)) return;
      try {
        mkdirSync(dir, { mode: 0o700 });
      } catch {
        // exists already (checked below), or cannot be made: then there is no cache
      }
      if (!isPrivateDir(dir)) return;
      try {
        const mac = directoryMac(dir, KEY_FILE, macInput(payload));
        // Not durable: a lost entry costs one slower start, never a wrong config.
        writeFileAtomically(entryPath, JSON.stringify({ mac, payload }), 0o600, { durable: false });
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
  const entries = readdirSync(dir)
    .filter((name) => name.startsWith(`${job}.`) && name.endsWith('.json'))
    .map((name) => ({ path: join(dir, name), at: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { path } of entries.slice(BUILDS_KEPT)) rmSync(path, { force: true });
}

/** Only a directory of deadman's own user that no one else can write into holds entries and their key. */
function isPrivateDir(dir: string): boolean {
  try {
    const stat = lstatSync(dir);
    return stat.isDirectory() && stat.uid === euid() && (stat.mode & 0o022) === 0;
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
