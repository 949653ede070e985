import { hostname } from 'node:os';
import { join } from 'node:path';
import { alertSinkNames, type Alert } from '../../core/alerts/alert.ts';
import type { AlertPlanner, IncidentTransition, PlannerSettings } from '../../core/alerts/alert-planner.ts';
import type { Config } from '../../core/config/config.ts';
import { formatArgv } from '../../core/process/format-argv.ts';
import type { Redactor } from '../../core/redact/redact.ts';
import type { AlertSender } from '../../io/alerts/alert-sender.ts';
import type { Logger } from '../../core/ports/logger.ts';
import { currentPathContext, resolveStateDir, type PathContext, type StatePaths } from '../../io/files/paths.ts';
import type { LoopClock } from '../../supervise/ports.ts';

/**
 * The alerts `deadman run` sends by itself: the run's start and end and its incidents'
 * transitions go to the planner (core/alerts/alert-planner.ts), what it decides goes to the
 * sender (io/alerts/alert-sender.ts). Every call returns at once; deciding and sending happen
 * on a queue of their own, so nothing on the supervision path ever waits for a sink. Both are
 * loaded on the first event while `[notify]` has a sink (zod and fetch are no start-up cost of
 * a run without one), and `[notify]` is read through `notify()` at every event, so a reloaded
 * config applies to the next alert.
 */

export interface RunAlerts {
  started(): void;
  incidentMoved(transition: IncidentTransition): void;
  /** One pass ended: its outcome and the output's tail describe the run's end. */
  passEnded(pass: {
    outcome: string;
    reason: string;
    errorCode?: string | null | undefined;
    outputTail?: readonly string[] | undefined;
  }): void;
  /** The run ended: sends success or fail (nothing after a stop signal), then resolves once every alert has been delivered or failed. */
  ended(end: { exitCode: number; reraise: string | null }): Promise<void>;
  /** Resolves once the alerts decided so far have been delivered or failed (each bounded by notify.timeout). */
  settled(): Promise<void>;
}

export interface RunAlertsInput {
  name: string;
  notify(): Config['notify'];
  paths: StatePaths;
  redactor: Redactor;
  logger: Logger;
  /** Reminders wait on it: they never keep the process alive, a reminder is for a run that still goes on. */
  clock: LoopClock;
}

interface Engine {
  planner: AlertPlanner;
  sender: AlertSender;
}

export function runAlerts(input: RunAlertsInput): RunAlerts {
  let engine: Promise<Engine> | null = null;
  let queue: Promise<void> = Promise.resolve();
  /** Counts the reminders armed: a wait that wakes to a newer count was replaced (or the run ended) and sends nothing. */
  let armed = 0;
  let lastPass: { outcome: string | null; reason: string | null; code: string | null; outputTail: readonly string[] } =
    { outcome: null, reason: null, code: null, outputTail: [] };
  const settings = (): PlannerSettings => {
    const notify = input.notify();
    return { events: notify.events, minIntervalMs: notify.min_interval, reminderMs: notify.reminder };
  };
  const decide = (plan: (planner: AlertPlanner, nowMs: number, settings: PlannerSettings) => Alert[]): void => {
    if (!hasSinks(input.notify())) return;
    const nowMs = input.clock.wall();
    queue = queue
      .then(async () => {
        engine ??= loadEngine(input);
        const { planner, sender } = await engine;
        sender.send(plan(planner, nowMs, settings()));
        armReminder(planner);
      })
      .catch((error: Error) => input.logger.log('warn', `alerts: ${error.message}`));
  };
  const armReminder = (planner: AlertPlanner): void => {
    const mine = (armed += 1);
    const next = planner.nextReminderAt(settings());
    if (next === null) return;
    void input.clock.sleep(Math.max(0, next - input.clock.wall())).then(() => {
      if (mine === armed) decide((p, now, s) => p.remind(now, s));
    });
  };
  const settled = async (): Promise<void> => {
    await queue;
    await (await engine)?.sender.settled();
  };
  return {
    started: () => {
      // Checked here too: a start that is not sent loads nothing at start-up.
      if (input.notify().events.includes('start')) decide((planner, now, s) => planner.started(now, s));
    },
    incidentMoved: (transition) => decide((planner, now, s) => planner.moved(transition, now, s)),
    passEnded: (pass) => {
      lastPass = {
        outcome: pass.outcome,
        reason: pass.reason,
        code: pass.errorCode ?? null,
        outputTail: pass.outputTail ?? [],
      };
    },
    ended: async (end) => {
      decide((planner, now, s) =>
        planner.ended({ exitCode: end.exitCode, stoppedBy: end.reraise, ...lastPass }, now, s),
      );
      await settled();
      armed += 1;
    },
    settled,
  };
}

function hasSinks(notify: Config['notify']): boolean {
  return alertSinkNames(notify).length > 0;
}

async function loadEngine(input: RunAlertsInput): Promise<Engine> {
  const [{ AlertPlanner }, { createAlertSender }, { alertLogPath, readAlertLog }] = await Promise.all([
    import('../../core/alerts/alert-planner.ts'),
    import('../../io/alerts/alert-sender.ts'),
    import('../../io/alerts/alert-log.ts'),
  ]);
  const logPath = alertLogPath(input.paths.stateDir, input.name);
  const flags = answerFlags(input.paths);
  const answers = (id: number) =>
    (['approve', 'deny'] as const).map((verb) =>
      formatArgv(['deadman', verb, String(id), ...flags], { quoting: 'shell' }),
    );
  return {
    planner: new AlertPlanner({ name: input.name, host: hostname(), answers }, readAlertLog(logPath)),
    sender: createAlertSender({
      settings: input.notify,
      redactor: input.redactor,
      logPath,
      wall: () => input.clock.wall(),
      invocation: process.env.INVOCATION_ID || null,
      log: (level, message) => input.logger.log(level, message),
    }),
  };
}

/**
 * `--state-dir`/`--database` as `deadman approve` needs them when a person types it: a unit's
 * $STATE_DIRECTORY is not in their shell, so a state directory other than their default is named.
 */
export function answerFlags(paths: StatePaths, context: PathContext = currentPathContext()): string[] {
  const typed = resolveStateDir({ ...context, env: { ...context.env, STATE_DIRECTORY: undefined } });
  const flags = paths.stateDir === typed ? [] : ['--state-dir', paths.stateDir];
  if (paths.database !== join(paths.stateDir, 'deadman.db')) flags.push('--database', paths.database);
  return flags;
}
