import type { CommandModule, Options } from 'yargs';
import { usageError } from '../exit-codes.ts';
import { createLogger, logFailure, problemsOnly, redactedLogger, withFaultReporter } from '../io/log/log.ts';
import type { Logger } from '../core/ports/logger.ts';
import { createSdNotifier, readSystemdEnvironment } from '../io/service/sd-notify.ts';
import { currentUnitName } from '../io/units/unit-name.ts';
import { repeatEvery } from '../io/time/clock.ts';
import { formatDuration } from '../core/time/duration.ts';
import { refuseCrossFieldProblems } from '../core/config/config-rules.ts';
import { RunRecords } from '../supervise/records/records.ts';
import { runPass } from '../supervise/run/supervised-pass.ts';
import { TraceRecorder } from '../supervise/trace/trace-recorder.ts';
import { traceSettings } from '../core/session/trace-settings.ts';
import { openTraceWriter } from '../io/session/trace-writer.ts';
import { reraise, shellExitCode } from '../io/process/exit-status.ts';
import { listenForReload, listenForRunStopSignals } from '../io/service/stop-signals.ts';
import { LiveConfig } from '../supervise/run/live-config.ts';
import { configReloader } from './run/reload-config.ts';
import { flagsToConfig, parseRunArgs, RUN_OPTIONS, type RunValues } from './run/run-options.ts';
import { loadContext, type Context } from './shared/command-context.ts';
import { openStore, redactorFor } from './shared/open-store.ts';
import { RECORDING_BUSY_TIMEOUT_MS, RecordingStore } from '../io/store/recording-store.ts';
import { printRunSummary, runReporters, summaryForm } from './run/run-reporters.ts';
import { metricsTextfileOf } from '../io/health/metrics-textfile.ts';
import { isRunOwnerAlive } from '../io/process/run-owner.ts';
import { ownStartTime } from '../io/process/process-identity.ts';
import { recordProcessExit } from '../io/store/run-ends.ts';
import { prepareRun } from './run/prepare-run.ts';
import { runName } from '../io/revive/run-name.ts';
import { detectAdapter } from '../core/adapters/index.ts';
import type { Refusal } from './run/run-marker.ts';
import { recordRefusal, thisProcessRun } from './run/refused-run.ts';
import type { SdNotifier } from '../core/ports/sd-notifier.ts';
import type { PassResult } from '../supervise/run/outcome.ts';
import { waitForUsageReset } from './run/usage-limit-wait.ts';
import { prepareRespawn } from './run/respawn.ts';
import { LAUNCHD_LABEL_ENV, launchdExitCode } from '../core/units/launchd-exit.ts';
import { listenForHealth } from './run/health-listen.ts';
import { alertSinkNames } from '../core/alerts/alert.ts';
import { runAlerts } from './run/run-alerts.ts';
import { startWatchdog } from '../supervise/run/watchdog.ts';
import { supervisePasses, type PassesEnd, type PassReason } from '../supervise/run/pass-loop.ts';
import type { PendingVerification } from '../supervise/tick/resumed-verification.ts';
import { passPorts, type RunPass } from './run/pass-ports.ts';

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
  const { config: configPath, database, 'state-dir': stateDir, record, 'summary-json': summaryJson, quiet, summary, 'health-listen': healthListen, 'health-public': healthPublic, ...settings } = values;
  let command = commandLine;
  const context = await loadContext({ config: configPath, database: database as string | undefined, 'state-dir': stateDir as string | undefined }, flagsToConfig(settings), { cached: true });
  const { config } = context;
  const systemd = readSystemdEnvironment();
  const watchdogMs = systemd.watchdogUsec === null ? null : systemd.watchdogUsec / 1000;
  refuseCrossFieldProblems(config, { watchdogMs, chosen: context.chosen });
  const redactor = redactorFor(config, process.env);
  const fullLogger = withFaultReporter(redactedLogger(unredactedLogger, redactor.text), context.paths.stateDir);
  const logger = quiet === true ? problemsOnly(fullLogger) : fullLogger;
  if (command.length === 0) command = config.command ?? [];
  if (command.length === 0) throw usageError('no command given: put it after -- (deadman run [options] -- <command…>) or set command = [...] in the config');
  const cwd = config.cwd ?? process.cwd();
  const notifier = createSdNotifier(process.env, (message) => logger.log('warn', message));
  let onStall = config.on_stall ?? (systemd.watchdogUsec ? 'withhold' : 'exit');
  if (onStall === 'withhold' && systemd.watchdogUsec === null) {
    logger.log('warn', 'on_stall = "withhold" needs a systemd watchdog (WatchdogSec=); using "exit" instead');
    onStall = 'exit';
  }
  const unit = currentUnitName();
  const name = runName(config.name, unit, command, detectAdapter(command, config.adapter), cwd);
  // ps, top and systemctl status show this instead of `node /usr/lib/…/deadman.js` (or MainThread).
  process.title = `deadman run ${name}`;
  const listener = await listenForHealth({ address: healthListen as string | undefined, public: healthPublic === true }, name, context.clock);
  const trace = typeof record === 'string' ? openTraceWriter(record) : null;
  const store = new RecordingStore({
    path: context.paths.database, open: () => openStore(context, { busyTimeoutMs: RECORDING_BUSY_TIMEOUT_MS, retain: false }), logger,
    wall: () => context.clock.wall(), monotonic: () => context.clock.monotonic(),
  });
  const recorder = trace && new TraceRecorder(trace, traceSettings(config, onStall), redactor.text, context.clock);
  const live = new LiveConfig(config);
  const stopReloading = listenForReload(configReloader({ file: context.file, args: { database: database as string | undefined, 'state-dir': stateDir as string | undefined }, flags: flagsToConfig(settings), watchdogMs }, live, logger));
  // Sinks are read at every alert, so a reloaded [notify] applies to the next one.
  const alerts = runAlerts({ name, notify: () => live.current.notify, paths: context.paths, redactor, logger, clock: context.clock });
  alerts.started();
  const run: RunPass = { name, command, cwd, config, live, context, redactor, logger, notifier, unit, store, watchdogUsec: systemd.watchdogUsec, onStall, recorder, actionsTaken: new Set(), alerts, passes: [], listener };
  try {
    const end = await supervisePassesOf(run);
    // Alerts still on their way (each bounded by notify.timeout) are waited for, the watchdog fed from now on: deadman is well.
    if (systemd.watchdogUsec) notifier.send('WATCHDOG=1');
    const stopFeeding = startWatchdog(notifier, systemd.watchdogUsec, repeatEvery, () => true);
    await alerts.ended(end);
    stopFeeding();
    // A summary asked for by name is printed even under --quiet.
    const form = summaryForm({ json: summaryJson === true, block: summary === true }, process.stderr.isTTY === true);
    printRunSummary({ passes: run.passes, database: context.paths.database, logger: summary === true ? fullLogger : logger, form }, end.reraise ? shellExitCode(null, end.reraise) : end.exitCode);
    if (end.reraise) reraise(end.reraise, store);
    store.write('the run\'s exit', (s) => recordProcessExit(s, { pid: process.pid, startTime: ownStartTime() }, end.exitCode, `the run ended ${end.exitCode} after this pass`));
    return end.exitCode;
  } finally {
    await listener?.close();
    stopReloading();
    store.close();
    trace?.close();
  }
}

/** The pass loop's real edges: the revive path resumes, the handoff file respawns, the in-process wait waits. */
function supervisePassesOf(first: RunPass): Promise<PassesEnd> {
  const { name, config, context, logger, notifier, watchdogUsec, recorder } = first;
  return supervisePasses(first, config.revive.max_revives, {
    supervise: (run, why, verifying) => superviseOnce(run, why, verifying),
    resume: (run, guidance) => (guidance === null ? run : { ...run, config: { ...config, revive: { ...config.revive, message: guidance } } }),
    respawn: (run, result) => {
      const fresh = prepareRespawn(result, { name, command: run.command, originalCommand: first.command, stateDir: context.paths.stateDir, adapter: config.adapter, logger }, new Date(context.clock.wall()));
      return fresh && { ...run, command: fresh.command };
    },
    unsettled: ({ incident }, why) => {
      first.passes.at(-1)?.verification(incident, 'NOT_RESOLVED', why);
      first.passes.at(-1)?.move(incident, 'escalate', why);
    },
    waitForUsageReset: (result, earlier) => waitForUsageReset({ resetAt: result.usageResetAt ?? null, throttle: result.usageThrottle === true }, earlier, config.usage_limit, {
      clock: context.clock, notifier, logger, watchdogUsec, every: repeatEvery, signals: listenForRunStopSignals, onPlan: (plan) => recorder?.usageWait(plan),
    }),
    logger,
  });
}

/** One supervised agent process, from the revive decision to its recorded end; a number when it was refused before it started. */
async function superviseOnce(run: RunPass, why: PassReason | null, verifying: PendingVerification | null): Promise<PassResult | number> {
  const { name, command, cwd, config, live, context, logger, notifier, unit, store, watchdogUsec, onStall } = run;
  const records = new RunRecords(store, () => context.clock.wall(), undefined, run.alerts.incidentMoved);
  run.passes.push(records);
  records.closeOrphans(name, isRunOwnerAlive);
  const prepared = await prepareRun({ name, command, cwd, config, context, records, logger });
  if (prepared.refusal) {
    run.alerts.passEnded(prepared.refusal);
    return refuse(prepared.refusal, { name, command, cwd, unit, records, notifier, logger });
  }
  logger.log('info', [
    `run ${name}`,
    store.recording ? `database ${context.paths.database}` : 'not recording',
    `auto-recover ${config.auto_recover ? 'on' : 'off'}`,
    // sd_notify (to systemd) and alerts (to people) are two things: the banner names both.
    `sd_notify ${notifier.path}`,
    `alerts ${alertSinkNames(live.current.notify).join(', ') || 'none'}`,
    run.listener && `health on port ${run.listener.port}`,
    watchdogUsec ? `watchdog ${formatDuration(watchdogUsec / 1000)} (ping every ${formatDuration(watchdogUsec / 2000)}, on stall: ${onStall})` : `no watchdog (on stall: ${onStall})`,
    prepared.startNote,
  ].filter(Boolean).join(' · '));
  const row = thisProcessRun({ name, argv: prepared.argv, cwd, unit, adapter: prepared.adapter().name, reviveOf: prepared.reviveOf, metricsTextfile: metricsTextfileOf(config.metrics.textfile, name) });
  records.startRun(row);
  const reporters = runReporters({ name, stateDir: context.paths.stateDir, config, watchdog: watchdogUsec !== null, store, logger, clock: context.clock, listener: run.listener });
  const ports = passPorts(run, { records, prepared, reporters, token: row.token, why, verifying });
  const result = await runPass({ argv: prepared.argv, cwd, env: process.env, runTag: prepared.runTag, config, live, onStall, watchdogUsec, actionsTaken: run.actionsTaken }, ports);
  ports.approvals?.discard();
  records.finishRun({ exitCode: result.exitCode, signal: result.reraise, outcome: result.outcome, reason: result.reason, errorCode: result.errorCode });
  run.alerts.passEnded(result);
  reporters.finish();
  prepared.finish(result, unit !== null);
  logger.log(result.exitCode === 0 ? 'info' : 'warn', `run ${name} ${result.outcome}: ${result.reason} (exit ${result.reraise ?? result.exitCode})`);
  return result;
}

/** Starting would be wrong (budget spent, another live supervisor): record why and say so. */
function refuse(
  refusal: Refusal,
  run: { name: string; command: string[]; cwd: string; unit: string | null; records: RunRecords; notifier: SdNotifier; logger: Logger },
): number {
  recordRefusal(run.records, thisProcessRun({ name: run.name, argv: run.command, cwd: run.cwd, unit: run.unit, adapter: 'none', reviveOf: null }), refusal, run.logger);
  run.notifier.send(`STATUS=HALTED · ${refusal.reason}`);
  return refusal.exitCode;
}

const yargsOptions = Object.fromEntries(
  Object.entries(RUN_OPTIONS).map(([flag, option]) => [flag, { type: option.type, describe: option.describe, ...('multiple' in option ? { array: true } : {}) } satisfies Options]),
);

/** yargs registration: `deadman run --help` lists the options; parsing itself is parseRunArgs. */
export const runCommandModule: CommandModule = {
  command: 'run [options] [-- <command..>]',
  describe: 'run a command under supervision (the unit\'s ExecStart=)',
  builder: (y) => y.options(yargsOptions),
  handler: async (args) => {
    const values = Object.fromEntries(Object.keys({ ...RUN_OPTIONS, config: 0 }).filter((k) => args[k] !== undefined).map((k) => [k, args[k]]));
    const command = [...((args.command as string[] | undefined) ?? []), ...((args['--'] as string[] | undefined) ?? [])].map(String);
    const logger = createLogger();
    process.exitCode = exitCodeForManager(await runCommand(values as RunValues, command, logger), logger);
  },
};
