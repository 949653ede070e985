import { deadmanArgv } from '../../core/units/service-command.ts';
import { deriveTimings } from '../../core/units/unit-timings.ts';
import { reviveUnitName, systemdRunArgv } from '../../core/units/transient-unit.ts';
import type { Marker } from '../../core/revive/marker.ts';
import type { PlannedRevive } from '../../core/revive/revive-plan.ts';
import type { Logger } from '../../core/ports/logger.ts';
import { unitNotifyPath } from '../../io/service/sd-notify.ts';
import { launchDetached } from '../../io/process/detached.ts';
import { writeMarker } from '../../io/revive/markers.ts';
import { newRunTag } from '../../io/revive/new-run-tag.ts';
import { reviveLogPath } from '../../io/revive/revive-log.ts';
import { resumeEnvironment, serviceManagerOf, startTransientUnit } from '../../io/revive/supervised-launch.ts';
import type { Context } from '../shared/command-context.ts';
import { DEADMAN_ENTRY } from '../unit/service-definition.ts';

/**
 * A session revived by the hook: `deadman revive` does not resume it itself but starts
 * `deadman run --name <name> -- <the marker's original command>` where it outlives the hook (a
 * transient unit, else a detached process), and that run resumes the session from the marker
 * exactly as after a restart of its unit (run-marker.ts): budget, freshness, trust, the revive
 * record and "one agent per session" stay one code path, and the resumed turn is supervised
 * (stalls, hung tools, the watchdog) like any run.
 *
 * A session found only in the agents' files comes with a marker made from the file
 * (markerForSession): the first write below creates it, signed like any other.
 *
 * Hand-off: the marker is not taken here (the run takes it and counts the revive once). Before
 * the launch it gets a new run tag that the launched deadman carries in its environment, so
 * a second hook sees the session as live (liveSessionPid) until the run has taken the marker,
 * while the run itself does not (it skips its own PID). A launch that fails puts the marker back.
 */

type Revive = Extract<PlannedRevive, { action: 'revive' }>;

export async function superviseResume(
  step: Revive,
  context: Context,
  databaseFlag: string | undefined,
  logger: Logger,
): Promise<{ outcome: string; log?: string }> {
  const { marker } = step;
  const dir = context.paths.markerDir;
  const runTag = newRunTag();
  writeMarker(dir, { ...marker, runTag });
  const run = deadmanArgv({
    nodePath: process.execPath,
    deadmanEntry: DEADMAN_ENTRY,
    name: marker.name,
    runArgs: sameStateArgs(context, databaseFlag),
    command: marker.argv,
  });
  const manager = serviceManagerOf(process.env);
  const launched =
    manager === null
      ? await launchDetachedRun(run, marker, context, runTag)
      : await launchInUnit(run, step, context, manager, runTag);
  if (!launched.ok) {
    writeMarker(dir, marker);
    logger.log('error', `could not revive session ${step.sessionId} of ${marker.name}: ${launched.error}`);
    return { outcome: `failed: ${launched.error}` };
  }
  logger.log(
    'notice',
    `revived session ${step.sessionId} (${step.attempt}/${step.budget}) — ${marker.name}, supervised by deadman run ${launched.where}`,
  );
  return { outcome: `supervised ${launched.where}`, ...(launched.log ? { log: launched.log } : {}) };
}

type Launched = { ok: true; where: string; log?: string } | { ok: false; error: string };

async function launchInUnit(
  run: string[],
  step: Revive,
  context: Context,
  manager: 'user' | 'system',
  runTag: string,
): Promise<Launched> {
  const unitName = reviveUnitName(step.marker.name, step.sessionId);
  const { env, names } = resumeEnvironment(process.env, runTag);
  const argv = systemdRunArgv({
    manager,
    unitName,
    description: `deadman revive: ${step.marker.name}`,
    timings: deriveTimings(context.config),
    notify: unitNotifyPath(process.env),
    workingDirectory: step.marker.cwd,
    environmentNames: names,
    run,
  });
  const started = await startTransientUnit(argv, env);
  return started.ok ? { ok: true, where: `in ${manager === 'user' ? 'user ' : ''}unit ${unitName}` } : started;
}

async function launchDetachedRun(run: string[], marker: Marker, context: Context, runTag: string): Promise<Launched> {
  const log = reviveLogPath(context.paths.stateDir, marker.name, context.clock.wall());
  const launch = await launchDetached(run, { cwd: marker.cwd, logPath: log, runTag });
  return launch.ok ? { ok: true, where: `pid ${launch.pid}, detached, output in ${log}`, log } : launch;
}

/**
 * The same database and markers for the run: the state directory when it decides where the
 * markers are (configured, or no database named), the database when given as a flag (the
 * config file, passed on, names its own).
 */
function sameStateArgs(context: Context, databaseFlag: string | undefined): string[] {
  const { config, paths, file } = context;
  return [
    ...(file ? ['--config', file] : []),
    ...(config.state_dir !== undefined || (databaseFlag ?? config.database) === undefined
      ? ['--state-dir', paths.stateDir]
      : []),
    ...(databaseFlag !== undefined ? ['--database', paths.database] : []),
  ];
}
