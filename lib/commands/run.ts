import type { CommandModule, Options } from 'yargs';
import { createLogger, logFailure } from '../io/log/log.ts';
import type { Logger } from '../core/ports/logger.ts';
import { createSdNotifier } from '../io/service/sd-notify.ts';
import { repeatEvery } from '../io/time/clock.ts';
import { TraceRecorder } from '../supervise/trace/trace-recorder.ts';
import { traceSettings } from '../core/session/trace-settings.ts';
import { openTraceWriter } from '../io/session/trace-writer.ts';
import { reraise, shellExitCode } from '../io/process/exit-status.ts';
import { listenForReload } from '../io/service/stop-signals.ts';
import { LiveConfig } from '../supervise/run/live-config.ts';
import { configReloader } from './run/reload-config.ts';
import { parseRunArgs, RUN_OPTIONS, type RunValues } from './run/run-options.ts';
import { openStore } from './shared/open-store.ts';
import { RECORDING_BUSY_TIMEOUT_MS, RecordingStore } from '../io/store/recording-store.ts';
import { printRunSummary, summaryForm } from './run/run-reporters.ts';
import { ownStartTime } from '../io/process/process-identity.ts';
import { recordProcessExit } from '../io/store/run-ends.ts';
import { LAUNCHD_LABEL_ENV, launchdExitCode } from '../core/units/launchd-exit.ts';
import { listenForHealth } from './run/health-listen.ts';
import { runAlerts } from './run/run-alerts.ts';
import { startWatchdog } from '../supervise/run/watchdog.ts';
import { type RunPass } from './run/pass-ports.ts';
import { supervisePassesOf } from './run/run-passes.ts';
import type { PassesEnd } from '../supervise/run/pass-loop.ts';
import { runSettings, onStallFor } from './run/run-settings.ts';

/**
 * `deadman run [options] -- <command…>`: reads the config, opens the store, notifier and trace,
 * and runs the passes; each pass's ports are built by one root (run/pass-ports.ts).
 */

export async function runFromArgv(argv: string[], logger: Logger = createLogger()): Promise<number> {
  let exitCode: number;
  try {
    const { values, command } = parseRunArgs(argv);
    exitCode = await runCommand(values, command, logger);
  } catch (error) {
    exitCode = logFailure(logger, error);
  }
  return exitCodeForManager(exitCode, logger);
}

/** Under launchd a "do not restart" code becomes 0, said in one line (core/units/launchd-exit.ts). */
function exitCodeForManager(code: number, logger: Logger): number {
  const { exitCode, note } = launchdExitCode(code, process.env[LAUNCHD_LABEL_ENV]);
  if (note) logger.log('notice', note);
  return exitCode;
}

async function runCommand(values: RunValues, commandLine: string[], unredactedLogger: Logger): Promise<number> {
  const { run, fullLogger, stopReloading, trace } = await startRun(values, commandLine, unredactedLogger);
  try {
    const end = await supervisePassesOf(run);
    return await endRun(run, end, {
      summaryJson: values['summary-json'] === true,
      summary: values.summary === true,
      fullLogger,
    });
  } finally {
    await run.listener?.close();
    stopReloading();
    run.store.close();
    trace?.close();
  }
}

/** What the run is, from the flags, the config and systemd's environment: everything its passes share. */
async function startRun(values: RunValues, commandLine: string[], unredactedLogger: Logger) {
  const { record, 'health-listen': healthListen, 'health-public': healthPublic } = values;
  const settings = await runSettings(values, commandLine, unredactedLogger);
  const { context, config, watchdogUsec, redactor, fullLogger, logger, command, cwd, unit, name } = settings;
  const notifier = createSdNotifier(process.env, (message) => logger.log('warn', message));
  const onStall = onStallFor(config.on_stall, watchdogUsec, logger);
  // ps, top and systemctl status show this instead of `node /usr/lib/…/deadman.js` (or MainThread).
  process.title = `deadman run ${name}`;
  const listener = await listenForHealth(
    { address: healthListen as string | undefined, public: healthPublic === true },
    name,
    context.clock,
  );
  const trace = typeof record === 'string' ? openTraceWriter(record) : null;
  const store = new RecordingStore({
    path: context.paths.database,
    open: () => openStore(context, { busyTimeoutMs: RECORDING_BUSY_TIMEOUT_MS, retain: false }),
    logger,
    wall: () => context.clock.wall(),
    monotonic: () => context.clock.monotonic(),
  });
  const recorder = trace && new TraceRecorder(trace, traceSettings(config, onStall), redactor.text, context.clock);
  const live = new LiveConfig(config);
  const stopReloading = listenForReload(configReloader(settings.reload, live, logger));
  // Sinks are read at every alert, so a reloaded [notify] applies to the next one.
  const alerts = runAlerts({
    name,
    notify: () => live.current.notify,
    paths: context.paths,
    redactor,
    logger,
    clock: context.clock,
  });
  alerts.started();
  const run: RunPass = {
    name,
    command,
    cwd,
    config,
    live,
    context,
    redactor,
    logger,
    notifier,
    unit,
    store,
    watchdogUsec,
    onStall,
    recorder,
    actionsTaken: new Set(),
    alerts,
    passes: [],
    listener,
  };
  return { run, fullLogger, stopReloading, trace };
}

/** After the last pass: alerts delivered, the summary printed, the run's exit recorded; the exit code. */
async function endRun(
  run: RunPass,
  end: PassesEnd,
  options: { summaryJson: boolean; summary: boolean; fullLogger: Logger },
): Promise<number> {
  const { notifier, watchdogUsec, store } = run;
  // Alerts still on their way (each bounded by notify.timeout) are waited for, the watchdog fed from now on: deadman is well.
  if (watchdogUsec) notifier.send('WATCHDOG=1');
  const stopFeeding = startWatchdog(notifier, watchdogUsec, repeatEvery, () => true);
  await run.alerts.ended(end);
  stopFeeding();
  // A summary asked for by name is printed even under --quiet.
  const form = summaryForm({ json: options.summaryJson, block: options.summary }, process.stderr.isTTY === true);
  printRunSummary(
    {
      passes: run.passes,
      database: run.context.paths.database,
      logger: options.summary ? options.fullLogger : run.logger,
      form,
    },
    end.reraise ? shellExitCode(null, end.reraise) : end.exitCode,
  );
  if (end.reraise) reraise(end.reraise, store);
  store.write("the run's exit", (s) =>
    recordProcessExit(
      s,
      { pid: process.pid, startTime: ownStartTime() },
      end.exitCode,
      `the run ended ${end.exitCode} after this pass`,
    ),
  );
  return end.exitCode;
}

const yargsOptions = Object.fromEntries(
  Object.entries(RUN_OPTIONS).map(([flag, option]) => [
    flag,
    {
      type: option.type,
      describe: option.describe,
      ...('multiple' in option ? { array: true } : {}),
    } satisfies Options,
  ]),
);

/** yargs registration: `deadman run --help` lists the options; parsing itself is parseRunArgs. */
export const runCommandModule: CommandModule = {
  command: 'run [options] [-- <command..>]',
  describe: "run a command under supervision (the unit's ExecStart=)",
  builder: (y) => y.options(yargsOptions),
  handler: async (args) => {
    const values = Object.fromEntries(
      Object.keys({ ...RUN_OPTIONS, config: 0 })
        .filter((k) => args[k] !== undefined)
        .map((k) => [k, args[k]]),
    );
    const command = [
      ...((args.command as string[] | undefined) ?? []),
      ...((args['--'] as string[] | undefined) ?? []),
    ].map(String);
    const logger = createLogger();
    process.exitCode = exitCodeForManager(await runCommand(values as RunValues, command, logger), logger);
  },
};
