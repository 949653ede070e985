import type { Logger } from '../../core/ports/logger.ts';
import { repeatEvery } from '../../io/time/clock.ts';
import { formatDuration } from '../../core/time/duration.ts';
import { RunRecords } from '../../supervise/records/records.ts';
import { runPass } from '../../supervise/run/supervised-pass.ts';
import { listenForRunStopSignals } from '../../io/service/stop-signals.ts';
import { runReporters } from './run-reporters.ts';
import { metricsTextfileOf } from '../../io/health/metrics-textfile.ts';
import { isRunOwnerAlive } from '../../io/process/run-owner.ts';
import { prepareRun } from './prepare-run.ts';
import type { Refusal } from './start-decision.ts';
import { recordRefusal, thisProcessRun } from './refused-run.ts';
import type { SdNotifier } from '../../core/ports/sd-notifier.ts';
import type { PassResult } from '../../supervise/run/outcome.ts';
import { waitForUsageReset } from './usage-limit-wait.ts';
import { prepareRespawn } from './respawn.ts';
import { alertSinkNames } from '../../core/alerts/alert.ts';
import { supervisePasses, type PassesEnd, type PassReason } from '../../supervise/run/pass-loop.ts';
import type { PendingVerification } from '../../supervise/tick/resumed-verification.ts';
import { passPorts, type RunPass } from './pass-ports.ts';
import type { PreparedRun } from './prepare-run.ts';
import type { RunReporters } from './run-reporters.ts';
import type { PassPorts } from '../../supervise/ports.ts';

/**
 * The passes of `deadman run`: the pass loop's real edges, and one supervised pass from the
 * revive decision to its recorded end (its ports built by run/pass-ports.ts).
 */

/** A prepared run that was not refused. */
type StartedRun = Extract<PreparedRun, { refusal: null }>;

/** The pass loop's real edges: the revive path resumes, the handoff file respawns, the in-process wait waits. */
export function supervisePassesOf(first: RunPass): Promise<PassesEnd> {
  const { name, config, context, logger, notifier, watchdogUsec, recorder } = first;
  return supervisePasses(first, config.revive.max_revives, {
    supervise: (run, why, verifying) => superviseOnce(run, why, verifying),
    resume: (run, guidance) =>
      guidance === null ? run : { ...run, config: { ...config, revive: { ...config.revive, message: guidance } } },
    respawn: (run, result) => {
      const fresh = prepareRespawn(
        result,
        {
          name,
          command: run.command,
          originalCommand: first.command,
          stateDir: context.paths.stateDir,
          adapter: config.adapter,
          logger,
        },
        new Date(context.clock.wall()),
      );
      return fresh && { ...run, command: fresh.command };
    },
    unsettled: ({ incident }, why) => {
      first.passes.at(-1)?.verification(incident, 'NOT_RESOLVED', why);
      first.passes.at(-1)?.move(incident, 'escalate', why);
    },
    waitForUsageReset: (result, earlier) =>
      waitForUsageReset(
        { resetAt: result.usageResetAt ?? null, throttle: result.usageThrottle === true },
        earlier,
        config.usage_limit,
        {
          clock: context.clock,
          notifier,
          logger,
          watchdogUsec,
          every: repeatEvery,
          signals: listenForRunStopSignals,
          onPlan: (plan) => recorder?.usageWait(plan),
        },
      ),
    logger,
  });
}

/** One supervised agent process, from the revive decision to its recorded end; a number when it was refused before it started. */
async function superviseOnce(
  run: RunPass,
  why: PassReason | null,
  verifying: PendingVerification | null,
): Promise<PassResult | number> {
  const { name, command, cwd, config, live, context, logger, notifier, unit, store, watchdogUsec, onStall } = run;
  const records = new RunRecords(store, () => context.clock.wall(), undefined, run.alerts.incidentMoved);
  run.passes.push(records);
  records.closeOrphans(name, isRunOwnerAlive);
  const prepared = await prepareRun({ name, command, cwd, config, context, records, logger });
  if (prepared.refusal) {
    run.alerts.passEnded(prepared.refusal);
    return refuse(prepared.refusal, { name, command, cwd, unit, records, notifier, logger });
  }
  logger.log('info', startBanner(run, prepared));
  const row = thisProcessRun({
    name,
    argv: prepared.argv,
    cwd,
    unit,
    adapter: prepared.adapter().name,
    reviveOf: prepared.reviveOf,
    metricsTextfile: metricsTextfileOf(config.metrics.textfile, name),
  });
  records.startRun(row);
  const reporters = runReporters({
    name,
    stateDir: context.paths.stateDir,
    config,
    watchdog: watchdogUsec !== null,
    store,
    logger,
    clock: context.clock,
    listener: run.listener,
  });
  const ports = passPorts(run, { records, prepared, reporters, token: row.token, why, verifying });
  const result = await runPass(
    {
      argv: prepared.argv,
      cwd,
      env: process.env,
      runTag: prepared.runTag,
      config,
      live,
      onStall,
      watchdogUsec,
      actionsTaken: run.actionsTaken,
    },
    ports,
  );
  passEnded(run, { records, reporters, prepared, approvals: ports.approvals }, result);
  return result;
}

/** The line a pass starts with: where it records, what recovers, who is told, the watchdog. */
function startBanner(run: RunPass, prepared: StartedRun): string {
  const { name, config, live, context, notifier, store, watchdogUsec, onStall } = run;
  return [
    `run ${name}`,
    store.recording ? `database ${context.paths.database}` : 'not recording',
    `auto-recover ${config.auto_recover ? 'on' : 'off'}`,
    // sd_notify (to systemd) and alerts (to people) are two things: the banner names both.
    `sd_notify ${notifier.path}`,
    `alerts ${alertSinkNames(live.current.notify).join(', ') || 'none'}`,
    run.listener && `health on port ${run.listener.port}`,
    watchdogUsec
      ? `watchdog ${formatDuration(watchdogUsec / 1000)} (ping every ${formatDuration(watchdogUsec / 2000)}, on stall: ${onStall})`
      : `no watchdog (on stall: ${onStall})`,
    prepared.startNote,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** A pass's end: its approvals dropped, its row ended, its alerts and reporters told, its line logged. */
function passEnded(
  run: RunPass,
  pass: { records: RunRecords; reporters: RunReporters; prepared: StartedRun; approvals: PassPorts['approvals'] },
  result: PassResult,
): void {
  const { name, logger, unit } = run;
  const { records, reporters, prepared } = pass;
  pass.approvals?.discard();
  records.finishRun({
    exitCode: result.exitCode,
    signal: result.reraise,
    outcome: result.outcome,
    reason: result.reason,
    errorCode: result.errorCode,
  });
  run.alerts.passEnded(result);
  reporters.finish();
  prepared.finish(result, unit !== null);
  logger.log(
    result.exitCode === 0 ? 'info' : 'warn',
    `run ${name} ${result.outcome}: ${result.reason} (exit ${result.reraise ?? result.exitCode})`,
  );
}

/** Starting would be wrong (budget spent, another live supervisor): record why and say so. */
function refuse(
  refusal: Refusal,
  run: {
    name: string;
    command: string[];
    cwd: string;
    unit: string | null;
    records: RunRecords;
    notifier: SdNotifier;
    logger: Logger;
  },
): number {
  recordRefusal(
    run.records,
    thisProcessRun({
      name: run.name,
      argv: run.command,
      cwd: run.cwd,
      unit: run.unit,
      adapter: 'none',
      reviveOf: null,
    }),
    refusal,
    run.logger,
  );
  run.notifier.send(`STATUS=HALTED · ${refusal.reason}`);
  return refusal.exitCode;
}
