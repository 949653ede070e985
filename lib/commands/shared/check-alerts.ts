import { hostname } from 'node:os';
import { alertSinkNames, blankAlert, buildAlertRequests } from '../../core/alerts/alert.ts';
import { noteSent } from '../../core/alerts/alert-log-rules.ts';
import { ExitCode } from '../../exit-codes.ts';
import { alertLogPath, readAlertLog, writeAlertLog } from '../../io/alerts/alert-log.ts';
import { jobStateAlerts, noteAlerted, type AlertedStates } from '../../core/evidence/job-state-alerts.ts';
import type { JobVerdict } from '../../core/evidence/evidence.ts';
import { deliveryLine } from '../../io/alerts/alert-sender.ts';
import { alertedStatesPath, readAlertedStates, writeAlertedStates } from '../../io/alerts/job-alert-states.ts';
import { sendAlerts } from '../../io/alerts/send-alerts.ts';
import { type Context } from './command-context.ts';
import { redactorFor } from './open-store.ts';

/**
 * `deadman check` tells the `[notify]` sinks about each job whose state changed since its last
 * alert (core/alerts/job-state-alerts.ts): all at once, each sink bounded by `timeout`. A change
 * is recorded as alerted only when every sink took it, so a failed one is tried again by the
 * next check; one line per alert on stderr says where it went.
 */
export async function alertJobChanges(
  context: Context,
  verdicts: readonly JobVerdict[],
  exitCode: number,
  err: (line: string) => void,
): Promise<void> {
  const settings = context.config.notify;
  if (alertSinkNames(settings).length === 0) return;
  const path = alertedStatesPath(context.paths.stateDir);
  let alerted: AlertedStates = readAlertedStates(path);
  const redactor = redactorFor(context.config);
  const due = jobStateAlerts(verdicts, alerted, hostname(), context.clock.wall(), settings.events);
  const delivered = await Promise.all(
    due.map(async ({ alert }) => {
      const redacted = redactor.value(alert);
      const results = await sendAlerts(buildAlertRequests(redacted, settings), settings.timeout);
      err(deliveryLine(redacted, results));
      return results.every((r) => r.ok);
    }),
  );
  due.forEach(({ job, state }, i) => {
    if (delivered[i]) alerted = noteAlerted(alerted, job, state, context.clock.wall());
  });
  try {
    if (delivered.some(Boolean)) writeAlertedStates(path, alerted);
  } catch (error) {
    err(
      `cannot record the alerted job states in ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); the next check alerts them again`,
    );
    return;
  }
  if (
    exitCode === ExitCode.ATTENTION &&
    verdicts.every((v) => v.verdict === 'alive' || alerted[v.job]?.state === v.verdict)
  )
    notePassAlerted(context, err);
}

/** The run name `units/deadman-check-notify.service` alerts under when `deadman-check.service` failed. */
export const CHECK_PASS_NAME = 'deadman-check';

/**
 * Exit 1 whose every dead or unknown job the sinks already know of: noted in the alert log of
 * CHECK_PASS_NAME under this unit run's $INVOCATION_ID, so the OnFailure= unit's `deadman notify
 * fail` skips it ("the run sent it itself") and alerts only what the check could not: a config
 * refused (78), a state directory it could not write, a crash, a timeout, a sink that failed.
 */
function notePassAlerted(context: Context, err: (line: string) => void): void {
  const invocation = process.env.INVOCATION_ID;
  if (!invocation) return;
  const path = alertLogPath(context.paths.stateDir, CHECK_PASS_NAME);
  const now = context.clock.wall();
  const pass = {
    ...blankAlert({
      event: 'fail',
      name: CHECK_PASS_NAME,
      host: hostname(),
      at: new Date(now).toISOString(),
      source: 'check',
    }),
    exit_code: ExitCode.ATTENTION,
  };
  try {
    writeAlertLog(path, noteSent(readAlertLog(path), pass, now, invocation));
  } catch (error) {
    err(
      `cannot record in ${path} that the jobs were alerted (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); OnFailure= may alert this pass again`,
    );
  }
}
