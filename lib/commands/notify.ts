import { signalErrorCode } from '../core/incident/error-codes.ts';
import type { CommandModule } from 'yargs';
import { hostname } from 'node:os';
import {
  ALERT_EVENTS,
  alertSummary,
  blankAlert,
  buildAlertRequests,
  type Alert,
  type AlertEvent,
} from '../core/alerts/alert.ts';
import { alertKey, alreadySent, noteSent, type AlertLog } from '../core/alerts/alert-log-rules.ts';
import { ExitCode, usageError } from '../exit-codes.ts';
import { alertLogPath, readAlertLog, writeAlertLog } from '../io/alerts/alert-log.ts';
import { sendAlerts } from '../io/alerts/send-alerts.ts';
import { latestIncidentId, loadIncidentRows } from '../io/store/incident-records.ts';
import { loadContext, stateOptions, type CommonArgs, type Context } from './shared/command-context.ts';
import { redactorFor } from './shared/open-store.ts';
import { openExistingStore } from './shared/open-existing-store.ts';

/**
 * `deadman notify <start|success|fail|incident> --name N [--exit-code N]`: tells the sinks of
 * `[notify]`. The units' OnFailure= runs it; under systemd ≥ 251 the failed unit's exit status
 * comes from $MONITOR_EXIT_STATUS. `deadman run` sends its alerts itself; this is for when it
 * could not (it died): what the run already delivered — the same invocation
 * ($MONITOR_INVOCATION_ID), or the same alert within min_interval — is not sent again. A failed
 * sink makes the exit 1, so a broken alert path shows in `systemctl --failed` instead of going
 * unnoticed.
 */

interface NotifyArgs extends CommonArgs {
  event: AlertEvent;
  name?: string;
  'exit-code'?: number;
}

export const notifyCommand: CommandModule<object, NotifyArgs> = {
  command: 'notify <event>',
  describe: 'send an alert (start, success, fail, incident) to the sinks of [notify]',
  builder: (y) =>
    y
      .positional('event', { choices: ALERT_EVENTS, demandOption: true, describe: 'what happened' })
      .option('name', {
        type: 'string',
        describe: 'the run (unit instance) it is about; fail and incident name its latest incident',
      })
      .option('exit-code', {
        type: 'number',
        describe: 'the exit code of a fail (default: $MONITOR_EXIT_STATUS from OnFailure=)',
      })
      .options(stateOptions),
  handler: async (args) => {
    if (!args.name) throw usageError('name the run: deadman notify fail --name NAME');
    // A job's own problem (deadman check refuses it) must not silence the alert about it.
    const context = await loadContext(args, {}, { jobsApart: true });
    const settings = context.config.notify;
    const alert: Alert = redactorFor(context.config).value({
      ...blankAlert({
        event: args.event,
        name: args.name,
        host: hostname(),
        at: new Date(context.clock.wall()).toISOString(),
        source: 'notify',
      }),
      exit_code: args['exit-code'] ?? exitStatusFromMonitor(process.env.MONITOR_EXIT_STATUS),
      incident:
        args.event === 'fail' || args.event === 'incident' ? await latestIncident(args, args.name, context) : null,
    });
    const requests = buildAlertRequests(alert, settings);
    if (requests.length === 0) {
      process.stdout.write(`no sinks in [notify]: nothing sent (${alertSummary(alert)})\n`);
      return;
    }
    const logPath = alertLogPath(context.paths.stateDir, args.name);
    const log = readAlertLog(logPath);
    const invocation = process.env.MONITOR_INVOCATION_ID || null;
    if (alreadySent(log, alert, context.clock.wall(), settings.min_interval, invocation)) {
      const by =
        invocation !== null && log[alertKey(alert)]?.invocation === invocation
          ? 'the run sent it itself'
          : 'it went out less than min_interval ago';
      process.stdout.write(`skipped: ${args.name}/${alertKey(alert)}: ${by}\n`);
      return;
    }
    const results = await sendAlerts(requests, settings.timeout);
    for (const result of results)
      process.stdout.write(`${result.ok ? 'sent' : 'FAILED'} ${result.sink}: ${result.detail}\n`);
    rememberSent(logPath, noteSent(log, alert, context.clock.wall(), null));
    if (results.some((r) => !r.ok)) process.exitCode = ExitCode.ATTENTION;
  },
};

function exitStatusFromMonitor(value: string | undefined): number | null {
  return value !== undefined && /^\d{1,3}$/.test(value) ? Number(value) : null;
}

async function latestIncident(args: CommonArgs, name: string, context: Context): Promise<Alert['incident']> {
  const { store } = await openExistingStore(args, context);
  if (!store) return null;
  try {
    const id = latestIncidentId(store, name);
    const rows = id === null ? null : loadIncidentRows(store, id);
    const incident = rows?.incident;
    return incident
      ? {
          id: incident.id,
          kind: incident.kind,
          error_code: incident.error_code ?? signalErrorCode(incident.kind),
          state: incident.state,
          message: incident.message,
        }
      : null;
  } finally {
    store.close();
  }
}

function rememberSent(logPath: string, log: AlertLog): void {
  try {
    writeAlertLog(logPath, log);
  } catch (error) {
    process.stderr.write(
      `deadman: cannot record when alerts went out in ${logPath} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); min_interval cannot hold\n`,
    );
  }
}
