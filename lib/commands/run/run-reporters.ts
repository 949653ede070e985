import type { Config } from '../../core/config/config.ts';
import type { Clock } from '../../core/time/clock.ts';
import { healthFilePath, healthRefresher } from '../../io/health/health-file.ts';
import { reportFault } from '../../io/log/log.ts';
import type { Logger } from '../../core/ports/logger.ts';
import { ownStartTime } from '../../io/process/process-identity.ts';
import { metricsTextfilePath, metricsTextfileWriter } from '../../io/health/metrics-textfile.ts';
import { loadRunFacts } from '../../io/store/run-facts.ts';
import { loadRunSummary } from '../../io/store/run-summary-records.ts';
import { renderRunSummary, renderRunSummaryLine, runSummaryJson } from '../../core/incident/run-summary.ts';
import type { RecordingStore } from '../../io/store/recording-store.ts';
import type { RunRecords } from '../../supervise/records/records.ts';
import type { HealthListener } from './health-listen.ts';
import { runRetention } from './run-retention.ts';

/**
 * What the running deadman publishes for others to read without asking it: the health file
 * behind `deadman health` (and the same record to `--health-listen`), and the `[metrics] textfile` for node_exporter. Both are told the
 * run's health at every status update and written at most once per interval. The same once-a-poll
 * call keeps the database bounded (run-retention.ts).
 */

/** At most this often (and at most once a poll): a write costs two fsyncs. */
const REPORT_INTERVAL_MIN_MS = 2_000;

export interface RunReporters {
  health(healthy: boolean, status: string, quietMs: number): void;
  /** Once, after the run's record is closed: the textfile's last word (not running, the exit code). */
  finish(): void;
}

export function runReporters(run: {
  name: string;
  stateDir: string;
  config: Config;
  watchdog: boolean;
  store: RecordingStore;
  logger: Logger;
  clock: Clock;
  listener: HealthListener | null;
}): RunReporters {
  const { clock } = run;
  const intervalMs = Math.max(run.config.poll, REPORT_INTERVAL_MIN_MS);
  const warn = (message: string) => run.logger.log('warn', message);
  const healthPath = healthFilePath(run.stateDir, run.name);
  const identity = { name: run.name, pid: process.pid, pid_start_time: ownStartTime(), interval_ms: intervalMs };
  const refreshHealth = healthRefresher(healthPath, identity, (line) =>
    reportFault(run.logger, 'health file', healthPath, line),
  );
  const template = run.config.metrics.textfile;
  const writeMetrics =
    template === undefined
      ? null
      : metricsTextfileWriter({
          path: metricsTextfilePath(template, run.name),
          name: run.name,
          intervalMs,
          watchdog: run.watchdog,
          onError: warn,
          startedAt: clock.wall(),
          facts: () => run.store.write('metrics', (store) => loadRunFacts(store, { onlyName: run.name })[0] ?? null),
        });
  const retention = runRetention(run.store, run.config.retention, clock);
  return {
    health(healthy, status, quietMs) {
      run.store.notice(); // once a poll, like this: a deleted state directory is noticed within one
      retention.poll();
      refreshHealth(healthy, status, clock.wall(), clock.monotonic());
      run.listener?.publish({ ...identity, healthy, status, updated_at: clock.wall() });
      writeMetrics?.({ healthy, lastOutputAt: clock.wall() - quietMs }, clock.monotonic());
    },
    finish() {
      retention.finish();
      writeMetrics?.({ healthy: false, lastOutputAt: null }, clock.monotonic(), true);
    },
  };
}

/** How the summary is said: one JSON object, the block a person reads, or one line for a journal or a log file. */
export type SummaryForm = 'json' | 'block' | 'line';

/** `--summary-json` wins; the block on a terminal or with `--summary`; else one line (a journal need not hold nine). */
export function summaryForm(flags: { json: boolean; block: boolean }, stderrIsTerminal: boolean): SummaryForm {
  if (flags.json) return 'json';
  return flags.block || stderrIsTerminal ? 'block' : 'line';
}

/**
 * What a run ends with (core/incident/run-summary.ts), from what its passes recorded, in `form`.
 * Nothing when nothing was recorded (no database).
 */
export function printRunSummary(
  run: { passes: ReadonlyArray<Pick<RunRecords, 'id' | 'read'>>; database: string; logger: Logger; form: SummaryForm },
  exitCode: number,
): void {
  const ids = run.passes.map((pass) => pass.id).filter((id): id is number => id !== null);
  const facts = run.passes.at(-1)?.read('the run summary', (store) => loadRunSummary(store, ids, run.database));
  if (!facts) return;
  if (run.form === 'json') process.stderr.write(`${JSON.stringify(runSummaryJson(facts, exitCode))}\n`);
  else
    run.logger.log(
      'info',
      run.form === 'block' ? renderRunSummary(facts, exitCode) : renderRunSummaryLine(facts, exitCode),
    );
}
