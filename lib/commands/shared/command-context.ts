import { resolve } from 'node:path';
import type { Options } from 'yargs';
import type { Config } from '../../core/config/config.ts';
import { loadConfig, type LoadedConfig } from '../../io/config/config-file.ts';
import {
  currentPathContext,
  resolveCacheBase,
  resolveStateDir,
  statePaths,
  type StatePaths,
} from '../../io/files/paths.ts';
import { commandClock } from './command-clock.ts';
import type { LoopClock } from '../../supervise/ports.ts';
import type { ServiceStop } from '../../core/status/lost-run-end.ts';

/**
 * `--database FILE` and `--state-dir DIR`, defined once for every command that finds state
 * (run's parseArgs table spreads them too): the same meaning wherever they are given.
 */
export const stateOptions = {
  database: {
    type: 'string',
    describe:
      'SQLite database (default: <state dir>/deadman.db); alone, the revive markers go beside it (<database>.markers/)',
  },
  'state-dir': {
    type: 'string',
    describe:
      "state directory: database and revive markers both go there (default: $STATE_DIRECTORY, else the platform's)",
  },
} as const satisfies Record<string, Options>;

export interface CommonArgs {
  config?: string | undefined;
  database?: string | undefined;
  'state-dir'?: string | undefined;
}

export interface Context extends LoadedConfig {
  paths: StatePaths;
  /** The one clock a command reads and waits on (the run's loop takes the same port, supervise/ports.ts): the real one is commandClock (command-clock.ts), a test's a fake. */
  clock: LoopClock;
  /** systemd's word on how the unit's main process ended, to ExecStop= and ExecStopPost= (io/service/service-stop-env.ts); null anywhere else. */
  serviceStop?: ServiceStop | null;
}

/**
 * Loads the config (flags merged over the file) and resolves where state lives. `cached`: a
 * config validated by an earlier start may be used (`deadman run`, started again and again by
 * its unit); commands that check or report a config always validate it. `jobsApart`: jobs
 * whose own problems are the config's only ones are left out and listed (`deadman check`).
 */
export async function loadContext(
  args: CommonArgs,
  flags: Record<string, unknown> = {},
  { cached = false, jobsApart = false } = {},
): Promise<Context> {
  const stateDir = args['state-dir'] === undefined ? {} : { state_dir: resolve(args['state-dir']) };
  const cacheBase = cached ? resolveCacheBase(currentPathContext(), stateDir.state_dir) : undefined;
  const loaded = await loadConfig({
    explicitPath: args.config,
    flags: { ...flags, ...stateDir },
    cacheBase,
    jobsApart,
  });
  return {
    ...loaded,
    paths: resolvePaths(loaded.config, args.database),
    clock: commandClock,
    serviceStop: await serviceStopOf(process.env),
  };
}

/** Only systemd's stop commands are given $SERVICE_RESULT: anywhere else no schema for it is loaded (issue 36.1). */
async function serviceStopOf(env: NodeJS.ProcessEnv): Promise<ServiceStop | null> {
  if (env.SERVICE_RESULT === undefined) return null;
  const { serviceStopFromEnv } = await import('../../io/service/service-stop-env.ts');
  return serviceStopFromEnv(env);
}

export function resolvePaths(config: Config, databaseFlag?: string): StatePaths {
  const stateDir = resolveStateDir(currentPathContext(), config.state_dir);
  return statePaths(stateDir, databaseFlag ?? config.database, config.state_dir !== undefined);
}
