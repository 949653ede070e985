import type { Config } from '../../core/config/config.ts';
import {
  planUsageWait,
  usageWaitStatus,
  type EarlierBackoffs,
  type UsageLimitEnd,
  type UsageWait,
} from '../../core/detect/usage-limit.ts';
import { ExitCode } from '../../exit-codes.ts';
import type { Clock } from '../../core/time/clock.ts';
import type { Logger } from '../../core/ports/logger.ts';
import type { SdNotifier } from '../../core/ports/sd-notifier.ts';
import type { Repeater, SignalSource } from '../../supervise/ports.ts';
import { startWatchdog, statusSender } from '../../supervise/run/watchdog.ts';
import type { UsageWaitEnd } from '../../supervise/run/pass-loop.ts';

/**
 * The in-process wait after a USAGE_LIMIT: the same under systemd (the watchdog stays fed, so
 * the unit stays up and NRestarts stays 0), under launchd (no notify socket, no watchdog: the
 * wait keeps its own deadline) and in a shell. The STATUS= names the reset time and how long is
 * left. A stop signal ends the wait; the revive marker stays interrupted, so the next start
 * resumes. Beyond `usage_limit.max_wait` deadman does not wait and exits 69: a restart before
 * the reset would only burn retries. With no reset time, or on a throttle that is not the
 * plan's limit, it backs off instead (bounded: usage-limit.ts), and past the bound exits 69 for
 * a limit, 75 (restart) for a throttle.
 *
 * The wait is not part of `timeout`: that caps each agent process's wall time (a pass), and
 * the wait is bounded by `usage_limit.max_wait` and, across waits, by the revive budget.
 */

export interface UsageWaitDeps {
  clock: Clock;
  notifier: SdNotifier;
  logger: Logger;
  watchdogUsec: number | null;
  every: Repeater;
  signals: SignalSource;
  random?: () => number;
  /** Hears the plan before the wait starts (`run --record` writes it into the trace). */
  onPlan?: (plan: UsageWait) => void;
}

/**
 * The reset is a wall-clock time, and it is checked against the wall clock each tick: a timer
 * of hours runs on the monotonic clock, which stands still while a laptop sleeps, so a Mac
 * asleep for an hour of the wait would resume an hour late.
 */
const TICK_MS = 1_000;
const STATUS_EVERY_MS = 30_000;

export async function waitForUsageReset(
  limit: UsageLimitEnd,
  earlier: EarlierBackoffs,
  limits: Omit<Config['usage_limit'], 'continue_grace'>,
  deps: UsageWaitDeps,
): Promise<UsageWaitEnd> {
  const { clock, notifier, logger } = deps;
  const startedAt = clock.wall();
  const plan = planUsageWait(
    limit,
    earlier,
    startedAt,
    { maxWaitMs: limits.max_wait, jitterMs: limits.jitter, backoffMs: limits.backoff },
    (deps.random ?? Math.random)(),
  );
  deps.onPlan?.(plan);
  if (!plan.wait) return notWaiting(plan, deps);
  const sendStatus = statusSender(notifier);
  const publish = () => sendStatus(usageWaitStatus(plan.resumeAt, clock.wall(), plan.backoff));
  publish();
  logger.log('notice', usageWaitStatus(plan.resumeAt, clock.wall(), plan.backoff));
  const stopWatchdog = startWatchdog(notifier, deps.watchdogUsec, deps.every, () => true);
  let stopTicking = () => {};
  let stopListening = () => {};
  try {
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => {
      let publishedAt = clock.wall();
      stopTicking = deps.every(TICK_MS, () => {
        const now = clock.wall();
        if (now >= plan.resumeAt) return resolve(null);
        if (now - publishedAt < STATUS_EVERY_MS) return;
        publishedAt = now;
        publish();
      });
      stopListening = deps.signals(resolve);
    });
    if (signal) {
      logger.log(
        'notice',
        `${signal} while waiting for the usage limit reset: stopping; the next start resumes the session`,
      );
      return { resume: false, exitCode: ExitCode.STALLED_RESTART, reraise: signal };
    }
    logger.log(
      'notice',
      plan.backoff ? 'backoff over: resuming the session' : 'usage limit reset reached: resuming the session',
    );
    return { resume: true, backoffMs: plan.backoff ? clock.wall() - startedAt : null };
  } finally {
    stopListening();
    stopTicking();
    stopWatchdog();
  }
}

/** A limit not waited for (plan.reason says why): said, and the exit that asks systemd for a restart or not. */
function notWaiting(plan: Extract<UsageWait, { wait: false }>, { notifier, logger }: UsageWaitDeps): UsageWaitEnd {
  const [exitCode, meaning] = plan.restart
    ? [ExitCode.STALLED_RESTART, 'restart wanted']
    : [ExitCode.DO_NOT_RESTART, 'do not restart'];
  notifier.send(`STATUS=USAGE LIMIT · not waiting: ${plan.reason} · ${meaning}`);
  logger.log(
    'error',
    `USAGE_LIMIT: not waiting, ${plan.reason} (exit ${exitCode}: ${meaning}; the next start resumes the session)`,
  );
  return { resume: false, exitCode, reraise: null };
}
