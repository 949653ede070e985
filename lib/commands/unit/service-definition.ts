import type { Argv } from 'yargs';
import { userInfo } from 'node:os';
import { dirname, resolve } from 'node:path';
import { launchdRunArgs, plistFileName, renderPlist } from '../../core/units/plist.ts';
import { renderUnit, unitFileName } from '../../core/units/unit-file.ts';
import { notifyUnitFileName, onFailureTarget, renderNotifyUnit } from '../../core/units/on-failure-unit.ts';
import { deriveTimings, type UnitTimings } from '../../core/units/unit-timings.ts';
import type { ServiceCommand } from '../../core/units/service-command.ts';
import { SANDBOX_LEVELS, type SandboxLevel } from '../../core/units/hardening.ts';
import { refuseCrossFieldProblems } from '../../core/config/config-rules.ts';
import { usageError } from '../../exit-codes.ts';
import { loadConfig, type LoadedConfig } from '../../io/config/config-file.ts';
import { homeOf } from '../../io/units/user-home.ts';
import { unitNotifyPath } from '../../io/service/sd-notify.ts';
import { packageFile } from '../../io/files/package-files.ts';
import type { CommonArgs } from '../shared/command-context.ts';
import { flagsToConfig, RUN_OPTIONS, type RunOption } from '../run/run-options.ts';
import { exportedStateDir, recordArgs, stateDirOutsideHome, writablePaths } from './service-paths.ts';
import {
  carriedOver,
  defaultName,
  parseEnvAssignments,
  resolveProgram,
  runArgsFrom,
  runFlagValues,
  span,
} from './service-arguments.ts';

/**
 * What `deadman unit` prints and `deadman install` writes: one systemd unit or launchd plist
 * for one command. This module gathers the facts from the machine (Node's path, deadman's
 * entry, PATH, the user, whether the sd-notify addon loads, the effective config) and hands
 * them to the pure renderers.
 */

export interface ServiceArgs extends CommonArgs {
  name?: string;
  user?: boolean;
  launchd?: boolean;
  watchdog?: string;
  'restart-sec'?: string;
  'run-as'?: string;
  cwd?: string;
  env?: string[];
  'on-failure'?: string;
  sandbox?: string;
  '--'?: Array<string | number>;
  [runOption: string]: unknown;
}

export interface ServiceDefinition {
  kind: 'systemd' | 'launchd';
  scope: 'system' | 'user';
  fileName: string;
  text: string;
  /** Extra environment beyond PATH was given: the file may hold secrets. */
  holdsEnvironment: boolean;
  /** ReadWritePaths= of a systemd unit: each must exist before the unit starts. */
  writablePaths: string[];
  /** Files that go beside it: the OnFailure= unit of `--on-failure` alone. */
  companions: Array<{ fileName: string; text: string }>;
  /** The run's name and where it keeps its records (`--config`, `--state-dir`, `--database`), for the commands that read them. */
  run: { name: string; readArgs: string[] };
}

/** deadman's entry script, the one a unit's ExecStart= starts. */
export const DEADMAN_ENTRY = packageFile('bin/deadman.js');

export function serviceOptions<T>(y: Argv<T>): Argv<T> {
  let built = y
    .option('name', {
      type: 'string',
      describe: "names the unit (deadman-NAME.service) and the run (default: config name, else the command's basename)",
    })
    .option('user', { type: 'boolean', describe: 'a systemd --user unit (WantedBy=default.target, no User=)' })
    .option('launchd', { type: 'boolean', describe: 'a launchd plist for macOS instead of a systemd unit' })
    .option('watchdog', { type: 'string', describe: 'WatchdogSec= (default: a quarter of inactivity, 5s–60s)' })
    .option('restart-sec', { type: 'string', describe: 'RestartSec= / ThrottleInterval (default 30s)' })
    .option('run-as', {
      type: 'string',
      describe: 'User= of a system unit (default: $SUDO_USER, else the current user)',
    })
    .option('cwd', { type: 'string', describe: 'working directory of the command (default: the current one)' })
    .option('env', {
      type: 'string',
      array: true,
      describe: "KEY=VALUE for the command's environment (repeatable); PATH defaults to this shell's",
    })
    .option('on-failure', {
      type: 'string',
      describe:
        'OnFailure=: a unit to start when this one gives up; alone, a generated deadman-NAME-notify.service that reports the incident and alerts [notify]',
    })
    .option('sandbox', {
      type: 'string',
      choices: SANDBOX_LEVELS,
      describe:
        "sandboxing of the unit: strict, default (never in an agent's way) or off (default: [unit] sandbox, else default)",
    });
  for (const [flag, option] of Object.entries(RUN_OPTIONS) as Array<[string, RunOption]>) {
    if (flag === 'name') continue;
    built = built.option(flag, {
      type: option.type,
      array: option.multiple === true,
      describe: `deadman run: ${option.describe}`,
    });
  }
  return built;
}

export async function defineService(args: ServiceArgs): Promise<ServiceDefinition> {
  const command = (args['--'] ?? []).map(String);
  if (command.length === 0)
    throw usageError('name the command after --, e.g. deadman unit --name review -- codex exec --json "…"');
  const runFlags = runFlagValues(args);
  const loaded = await loadConfig({ explicitPath: args.config, flags: flagsToConfig(runFlags) });
  const exported = exportedStateDir(loaded, args.env ?? []);
  if (exported) runFlags['state-dir'] = exported;
  const cwd = resolve(args.cwd ?? process.cwd());
  const env = process.env;
  const name = args.name ?? loaded.config.name ?? defaultName(command[0]!);
  const timings = deriveTimings(loaded.config, {
    watchdogMs: span(args.watchdog, '--watchdog'),
    restartMs: span(args['restart-sec'], '--restart-sec'),
  });
  // The unit's `deadman run` would refuse them at every start (launchd has no watchdog).
  refuseCrossFieldProblems(loaded.config, {
    watchdogMs: args.launchd ? null : timings.watchdogMs,
    chosen: loaded.chosen,
  });
  const environment = [...new Map([...carriedOver(env), ...parseEnvAssignments(args.env ?? [])])];
  const unitPath = environment.find(([key]) => key === 'PATH')?.[1] ?? '';
  const shared: ServiceCommand = {
    name,
    nodePath: process.execPath,
    deadmanEntry: DEADMAN_ENTRY,
    runArgs: [...(loaded.file ? ['--config', loaded.file] : []), ...runArgsFrom(runFlags)],
    command: [resolveProgram(command[0]!, cwd, unitPath), ...command.slice(1)],
    workingDirectory: cwd,
    environment,
  };
  const holdsEnvironment = (args.env ?? []).length > 0;
  if (args.launchd) {
    if (args['on-failure'] !== undefined)
      throw usageError(
        '--on-failure is for systemd units: launchd has no OnFailure=; use [notify] and `deadman notify` from the job instead',
      );
    if (args.sandbox !== undefined)
      throw usageError('--sandbox is for systemd units: launchd has no sandboxing settings');
    launchdRunArgs(shared.runArgs);
    const logDir = resolve(env.HOME ?? userInfo().homedir, 'Library', 'Logs');
    return {
      kind: 'launchd',
      scope: 'user',
      fileName: plistFileName(name),
      text: renderPlist({ ...shared, logDir, timings }),
      holdsEnvironment,
      writablePaths: [],
      companions: [],
      run: { name, readArgs: recordArgs(loaded, cwd, exported) },
    };
  }
  return defineSystemdUnit(args, loaded, {
    ...shared,
    timings,
    holdsEnvironment,
    stateDir: loaded.config.state_dir ?? exported,
  });
}

type SharedParts = ServiceCommand & { timings: UnitTimings; holdsEnvironment: boolean; stateDir: string | undefined };

function defineSystemdUnit(args: ServiceArgs, loaded: LoadedConfig, parts: SharedParts): ServiceDefinition {
  const { holdsEnvironment, stateDir, ...shared } = parts;
  const env = process.env;
  const scope = args.user ? 'user' : 'system';
  // A notify path forced here is carried into the unit, so NotifyAccess= must match it.
  const database = args.database ?? loaded.config.database;
  const writable = writablePaths(
    shared.workingDirectory,
    database,
    stateDirOutsideHome(scope, stateDir),
    shared.environment,
  );
  const runAs = scope === 'user' ? userInfo().username : (args['run-as'] ?? env.SUDO_USER ?? userInfo().username);
  const onFailure = onFailureTarget(shared.name, args['on-failure']);
  const sandbox = (args.sandbox as SandboxLevel | undefined) ?? loaded.config.unit.sandbox;
  const home = scope === 'user' ? '%h' : homeOf(runAs);
  const stateFromEnv = shared.environment.find(([key]) => key === 'STATE_DIRECTORY')?.[1];
  const readArgs = recordArgs(loaded, shared.workingDirectory, stateDir);
  const text = renderUnit({
    ...shared,
    readArgs,
    scope,
    runAs,
    notify: unitNotifyPath(env),
    settings: loaded.config,
    writablePaths: writable,
    sharedWritablePaths: loaded.config.metrics.textfile ? [dirname(loaded.config.metrics.textfile)] : [],
    onFailure,
    sandbox,
    maxRevives: loaded.config.revive.max_revives,
    home,
    recordsAt: database ? resolve(shared.workingDirectory, database) : (stateDir ?? stateFromEnv ?? null),
  });
  const companions =
    onFailure === notifyUnitFileName(shared.name)
      ? [
          {
            fileName: onFailure,
            text: renderNotifyUnit({
              ...shared,
              runAs: scope === 'user' ? null : runAs,
              readArgs,
              sandbox,
              writablePaths: writable,
              home,
            }),
          },
        ]
      : [];
  return {
    kind: 'systemd',
    scope,
    fileName: unitFileName(shared.name),
    text,
    holdsEnvironment,
    writablePaths: writable,
    companions,
    run: { name: shared.name, readArgs },
  };
}
