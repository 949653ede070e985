import type { Config } from '../core/config/config.ts';
import { planUsageWait, usageWaitStatus, type UsageWait } from '../core/detect/usage-limit.ts';
import { ExitCode } from '../exit-codes.ts';
import type { Clock } from '../io/clock.ts';
import type { Logger } from '../io/log.ts';
import type { Notifier } from '../io/notify.ts';
import { listenForStopSignals } from '../io/stop-signals.ts';
import { startWatchdog, statusSender } from '../supervise/watchdog.ts';
import type { UsageWaitEnd } from '../supervise/pass-loop.ts';

/**
 * The in-process wait after a USAGE_LIMIT: the same under systemd (the watchdog stays fed, so
 * the unit stays up and NRestarts stays 0), under launchd and in a shell. The STATUS= names the
 * reset time and how long is left. A stop signal ends the wait; the revive marker stays
 * interrupted, so the next start resumes. Beyond `usage_limit.max_wait`, or with no reset time,
 * deadman does not wait and exits 69: a restart before the reset would only burn retries.
 */

const STATUS_EVERY_MS = 30_000;

export async function waitForUsageReset(
  resetAt: number | null,
  limits: Config['usage_limit'],
  /** `onPlan` hears the plan before the wait starts (`run --record` writes it into the trace). */
  deps: { clock: Clock; notifier: Notifier; logger: Logger; watchdogUsec: number | null; onPlan?: (plan: UsageWait) => void },
): Promise<UsageWaitEnd> {
  const { clock, notifier, logger } = deps;
  const plan = planUsageWait(resetAt, clock.wall(), { maxWaitMs: limits.max_wait, jitterMs: limits.jitter }, Math.random());
  deps.onPlan?.(plan);
  if (!plan.wait) {
    notifier.send(`STATUS=USAGE LIMIT · not waiting: ${plan.reason} · do not restart`);
    logger.log('error', `USAGE_LIMIT: not waiting, ${plan.reason} (exit ${ExitCode.DO_NOT_RESTART}: do not restart; the next start resumes the session)`);
    return { resume: false, exitCode: ExitCode.DO_NOT_RESTART, reraise: null };
  }
  const sendStatus = statusSender(notifier);
  const publish = () => sendStatus(usageWaitStatus(plan.resumeAt, clock.wall()));
  publish();
  logger.log('notice', usageWaitStatus(plan.resumeAt, clock.wall()));
  const stopWatchdog = startWatchdog(notifier, deps.watchdogUsec, () => true);
  const statusTimer = setInterval(publish, STATUS_EVERY_MS);
  let stopListening = () => {};
  try {
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), Math.max(0, plan.resumeAt - clock.wall()));
      stopListening = listenForStopSignals((received) => {
        clearTimeout(timer);
        resolve(received);
      });
    });
    if (signal) {
      logger.log('notice', `${signal} while waiting for the usage limit reset: stopping; the next start resumes the session`);
      return { resume: false, exitCode: ExitCode.STALLED_RESTART, reraise: signal };
    }
    logger.log('notice', 'usage limit reset reached: resuming the session');
    return { resume: true };
  } finally {
    stopListening();
    clearInterval(statusTimer);
    stopWatchdog();
  }
}
