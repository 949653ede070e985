import type { Options } from 'yargs';
import type { Config } from '../core/config.ts';
import { loadConfig, type LoadedConfig } from '../io/config-file.ts';
import { currentPathContext, resolveStateDir, statePaths, type StatePaths } from '../io/paths.ts';
import { Store } from '../io/store.ts';

/** The `--database FILE` option, for every command that touches the database. */
export const databaseOption = {
  type: 'string',
  describe: 'SQLite database (default: <state dir>/deadman.db)',
} as const satisfies Options;

export interface CommonArgs {
  config?: string | undefined;
  database?: string | undefined;
}

export interface Context extends LoadedConfig {
  paths: StatePaths;
}

/** Loads the config (flags merged over the file) and resolves where state lives. */
export async function loadContext(args: CommonArgs, flags: Record<string, unknown> = {}): Promise<Context> {
  const loaded = await loadConfig({ explicitPath: args.config, flags });
  return { ...loaded, paths: resolvePaths(loaded.config, args.database) };
}

export function resolvePaths(config: Config, databaseFlag?: string): StatePaths {
  const stateDir = resolveStateDir(currentPathContext(), config.state_dir);
  return statePaths(stateDir, databaseFlag ?? config.database);
}

export function openStore(context: Context): Store {
  return new Store(context.paths.database, {
    eventsPerRun: context.config.retention.events_per_run,
    observationsPerRun: context.config.retention.observations_per_run,
  });
}
