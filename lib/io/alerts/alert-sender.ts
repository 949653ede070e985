import { alertKey, noteSent } from '../../core/alerts/alert-log-rules.ts';
import { alertSummary, buildAlertRequests, type Alert, type AlertSinks } from '../../core/alerts/alert.ts';
import type { Redactor } from '../../core/redact/redact.ts';
import { readAlertLog, writeAlertLog } from './alert-log.ts';
import { sendAlerts, type AlertResult } from './send-alerts.ts';

/**
 * The run's alerts on their way out: each one redacted, handed to every sink at once (each
 * bounded by `timeout`, see send-alerts.ts) and never awaited by the caller, so a dead or
 * hanging sink holds up no ping, no output and no kill. What every sink took is written to the
 * alert log, so `deadman notify` from OnFailure= does not send it again. One journal line per
 * alert says where it went, or which sink failed and why.
 */

export interface AlertSenderEdges {
  /** Read at every alert: a reloaded config's sinks apply to the next one. */
  settings(): AlertSinks & { timeout: number };
  redactor: Redactor;
  logPath: string;
  wall(): number;
  /** $INVOCATION_ID: OnFailure='s notify matches it against $MONITOR_INVOCATION_ID. */
  invocation: string | null;
  log(level: 'info' | 'warn', message: string): void;
}

export interface AlertSender {
  send(alerts: readonly Alert[]): void;
  /** Resolves once every alert sent so far has been delivered or has failed (each bounded by its timeout). */
  settled(): Promise<void>;
}

export function createAlertSender(edges: AlertSenderEdges): AlertSender {
  const inFlight = new Set<Promise<void>>();
  let unrecorded = false;
  const remember = (alert: Alert): void => {
    try {
      writeAlertLog(edges.logPath, noteSent(readAlertLog(edges.logPath), alert, edges.wall(), edges.invocation));
    } catch (error) {
      if (unrecorded) return;
      unrecorded = true;
      edges.log(
        'warn',
        `cannot record sent alerts in ${edges.logPath} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): min_interval across runs and OnFailure='s dedupe cannot hold; alerts still go out`,
      );
    }
  };
  const deliver = async (alert: Alert): Promise<void> => {
    const settings = edges.settings();
    const redacted = edges.redactor.value(alert);
    const requests = buildAlertRequests(redacted, settings);
    if (requests.length === 0) return;
    const results = await sendAlerts(requests, settings.timeout);
    edges.log(results.every((r) => r.ok) ? 'info' : 'warn', deliveryLine(redacted, results));
    // A sink that failed gets it again from OnFailure='s notify: a repeat at one sink beats a miss at another.
    if (results.every((r) => r.ok)) remember(alert);
  };
  return {
    send(alerts) {
      for (const alert of alerts) {
        const sending: Promise<void> = deliver(alert)
          .catch((error: Error) => edges.log('warn', `alert ${alertKey(alert)} not sent: ${error.message}`))
          .finally(() => inFlight.delete(sending));
        inFlight.add(sending);
      }
    },
    settled: async () => {
      await Promise.all([...inFlight]);
    },
  };
}

/** `alert "<summary>": sent to webhook; FAILED ntfy …`: one line for the journal. */
export function deliveryLine(alert: Alert, results: readonly AlertResult[]): string {
  const sent = results.filter((r) => r.ok).map((r) => r.sink);
  const failed = results.filter((r) => !r.ok).map((r) => `${r.sink} ${r.detail}`);
  return `alert "${alertSummary(alert).slice(0, 200)}": ${[sent.length > 0 ? `sent to ${sent.join(', ')}` : '', failed.length > 0 ? `FAILED ${failed.join('; ')}` : ''].filter(Boolean).join('; ')}`;
}
