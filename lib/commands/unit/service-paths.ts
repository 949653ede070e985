import { dirname, resolve } from 'node:path';
import type { ServiceCommand } from '../../core/units/service-command.ts';
import type { LoadedConfig } from '../../io/config/config-file.ts';
import { currentPathContext, resolveStateDir } from '../../io/files/paths.ts';

/**
 * Where a unit's run keeps its records and may write: the state directory it is handed, the
 * arguments that find its records again, and the paths its sandbox leaves writable.
 */

/**
 * An exported STATE_DIRECTORY is where this shell's deadman keeps its records; under a manager it
 * would be lost (or replaced by StateDirectory='s), so the unit's run gets it as --state-dir.
 * Not when the config or --state-dir names one (they win over it) or --env carries it along.
 */
export function exportedStateDir(loaded: LoadedConfig, envAssignments: readonly string[]): string | undefined {
  const exported = process.env.STATE_DIRECTORY?.split(':')[0];
  if (!exported || loaded.config.state_dir || envAssignments.some((e) => e.startsWith('STATE_DIRECTORY=')))
    return undefined;
  return resolve(exported);
}

/** Where the job's run reads its config and writes its records, for its ExecStopPost= and the commands of its OnFailure= unit. */
export function recordArgs(loaded: LoadedConfig, cwd: string, exportedState: string | undefined): string[] {
  const { database } = loaded.config;
  // The state directory itself, not only its database: the alert log that keeps `deadman notify` from repeating the run's alerts is there.
  const stateDir = loaded.config.state_dir ? resolve(cwd, loaded.config.state_dir) : exportedState;
  return [
    ...(loaded.file ? ['--config', loaded.file] : []),
    ...(stateDir ? ['--state-dir', stateDir] : []),
    ...(database ? ['--database', resolve(cwd, database)] : []),
  ];
}

/**
 * The state directory when neither HOME nor StateDirectory= holds it: a configured one, or root's
 * /var/lib/deadman in a user unit (a system unit's StateDirectory=deadman makes that one).
 */
export function stateDirOutsideHome(scope: 'system' | 'user', configured: string | undefined): string | undefined {
  if (configured) return configured;
  const context = currentPathContext();
  return scope === 'user' && context.isRoot ? resolveStateDir(context) : undefined;
}

/** Where the job writes besides HOME, for ReadWritePaths=: its cwd and deadman's records when they are elsewhere. */
export function writablePaths(
  cwd: string,
  database: string | undefined,
  stateDir: string | undefined,
  environment: ServiceCommand['environment'],
): string[] {
  const stateFromEnv = environment.find(([key]) => key === 'STATE_DIRECTORY')?.[1];
  return [
    cwd,
    ...(database ? [dirname(resolve(cwd, database))] : []),
    ...[stateDir, stateFromEnv].flatMap((dir) => (dir ? [resolve(cwd, dir)] : [])),
  ];
}
