import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { untrustedAsParentReason } from './trusted-dir.ts';

/** Where deadman keeps its database and revive markers. */
export interface StatePaths {
  stateDir: string;
  database: string;
  markerDir: string;
}

export interface PathContext {
  env: NodeJS.ProcessEnv;
  isRoot: boolean;
  platform: NodeJS.Platform;
  home: string;
}

export function currentPathContext(): PathContext {
  return { env: process.env, isRoot: process.getuid?.() === 0, platform: process.platform, home: homedir() };
}

/** `$STATE_DIRECTORY` (systemd StateDirectory=), else the platform's per-user or system place. */
export function resolveStateDir(ctx: PathContext, override?: string): string {
  if (override) return override;
  const fromSystemd = ctx.env.STATE_DIRECTORY?.split(':')[0];
  if (fromSystemd) return fromSystemd;
  if (ctx.platform === 'darwin') return join(ctx.home, 'Library', 'Application Support', 'deadman');
  if (ctx.isRoot) return '/var/lib/deadman';
  return join(ctx.env.XDG_STATE_HOME || join(ctx.home, '.local', 'state'), 'deadman');
}

/**
 * Where deadman keeps what it can always rebuild (validated configs): systemd's CacheDirectory=
 * (`$CACHE_DIRECTORY`), else the state directory.
 */
export function resolveCacheBase(ctx: PathContext, stateDirOverride?: string): string {
  return ctx.env.CACHE_DIRECTORY?.split(':')[0] || resolveStateDir(ctx, stateDirOverride);
}

/**
 * The database and the markers move together: with a state directory they are both in it;
 * with only a database named, the markers live beside it (`<database>.markers/`), so a run
 * recorded elsewhere never picks up a marker of the shared state directory.
 */
export function statePaths(stateDir: string, databaseOverride?: string, stateDirGiven = false): StatePaths {
  return {
    stateDir,
    database: databaseOverride ?? join(stateDir, 'deadman.db'),
    markerDir: databaseOverride !== undefined && !stateDirGiven ? `${databaseOverride}.markers` : markerDirIn(stateDir),
  };
}

/**
 * `<state dir>/markers`, or `<state dir>/private/markers` when the state directory may not hold
 * markers itself: a volume Kubernetes mounts with `fsGroup` is group-writable, setgid and root's.
 * Then deadman's own 0700 `private/` is the markers' parent, and the marker rules hold unchanged.
 */
function markerDirIn(stateDir: string): string {
  return untrustedAsParentReason(stateDir) === null ? join(stateDir, 'markers') : join(stateDir, 'private', 'markers');
}

/** Config discovery order: --config, $DEADMAN_CONFIG, ./deadman.toml, then the system or user file. */
export function configCandidates(ctx: PathContext, cwd: string): string[] {
  const userOrSystem = ctx.isRoot
    ? '/etc/deadman/deadman.toml'
    : join(ctx.env.XDG_CONFIG_HOME || join(ctx.home, '.config'), 'deadman', 'deadman.toml');
  return [join(cwd, 'deadman.toml'), userOrSystem];
}

/**
 * Creates a private directory (0700, whatever the umask) for state that may hold prompts and
 * command lines. Directories that already exist are left as they are: `--database
 * /srv/data/x.db` must never change the mode of /srv/data.
 */
export function ensurePrivateDir(dir: string): void {
  // Not mkdirSync's `recursive`: under /proc (which answers ENOENT to any mkdir) it retries
  // forever at full CPU. One component at a time, top down, so such a path fails at once.
  const missing: string[] = [];
  for (let at = dir; !existsSync(at); at = dirname(at)) missing.unshift(at);
  for (const created of missing) {
    try {
      mkdirSync(created, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue; // another deadman made it first: its mode stands
      throw error;
    }
    chmodSync(created, 0o700);
  }
}
