import { usageError } from '../../exit-codes.ts';
import { problemsOnly, redactedLogger, withFaultReporter } from '../../io/log/log.ts';
import type { Logger } from '../../core/ports/logger.ts';
import { readSystemdEnvironment } from '../../io/service/sd-notify.ts';
import { currentUnitName } from '../../io/units/unit-name.ts';
import { refuseCrossFieldProblems } from '../../core/config/config-rules.ts';
import { flagsToConfig, type RunValues } from './run-options.ts';
import { loadContext } from '../shared/command-context.ts';
import { redactorFor } from '../shared/open-store.ts';
import { runName } from '../../io/revive/run-name.ts';
import { detectAdapter } from '../../core/adapters/index.ts';

/**
 * What `deadman run` is asked to do, before anything starts: the config under the flags, the
 * loggers, the command and its name, and what to do on a stall.
 */

/** The run's settings: the config under the flags, the loggers, the command, its name. */
export async function runSettings(values: RunValues, commandLine: string[], unredactedLogger: Logger) {
  // Every flag that is not a config key is named, so `settings` holds only config keys.
  const {
    config: configPath,
    database,
    'state-dir': stateDir,
    record,
    'summary-json': summaryJson,
    quiet,
    summary,
    'health-listen': healthListen,
    'health-public': healthPublic,
    ...settings
  } = values;
  let command = commandLine;
  const context = await loadContext(
    { config: configPath, database: database as string | undefined, 'state-dir': stateDir as string | undefined },
    flagsToConfig(settings),
    { cached: true },
  );
  const { config } = context;
  const systemd = readSystemdEnvironment();
  const watchdogMs = systemd.watchdogUsec === null ? null : systemd.watchdogUsec / 1000;
  refuseCrossFieldProblems(config, { watchdogMs, chosen: context.chosen });
  const redactor = redactorFor(config, process.env);
  const fullLogger = withFaultReporter(redactedLogger(unredactedLogger, redactor.text), context.paths.stateDir);
  const logger = quiet === true ? problemsOnly(fullLogger) : fullLogger;
  if (command.length === 0) command = config.command ?? [];
  if (command.length === 0)
    throw usageError(
      'no command given: put it after -- (deadman run [options] -- <command…>) or set command = [...] in the config',
    );
  const cwd = config.cwd ?? process.cwd();
  const unit = currentUnitName();
  const name = runName(config.name, unit, command, detectAdapter(command, config.adapter), cwd);
  // What a SIGHUP reads again: the same file under the same flags.
  const reload = {
    file: context.file,
    args: { database: database as string | undefined, 'state-dir': stateDir as string | undefined },
    flags: flagsToConfig(settings),
    watchdogMs,
  };
  return {
    context,
    config,
    watchdogUsec: systemd.watchdogUsec,
    redactor,
    fullLogger,
    logger,
    command,
    cwd,
    unit,
    name,
    reload,
  };
}

/** `on_stall`, unset: withhold the watchdog's ping when there is a watchdog, exit otherwise. */
export function onStallFor(
  chosen: 'withhold' | 'exit' | undefined,
  watchdogUsec: number | null,
  logger: Logger,
): 'withhold' | 'exit' {
  const onStall = chosen ?? (watchdogUsec ? 'withhold' : 'exit');
  if (onStall === 'withhold' && watchdogUsec === null) {
    logger.log('warn', 'on_stall = "withhold" needs a systemd watchdog (WatchdogSec=); using "exit" instead');
    return 'exit';
  }
  return onStall;
}
