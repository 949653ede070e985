import type { MetricFamily } from './prometheus.ts';

/**
 * What a fleet scrapes about each run name: the facts the database (or the running deadman)
 * holds, turned into metric families. One row per run name, its latest run. Pure.
 */
export interface RunFacts {
  name: string;
  /** The latest run is still going and has no open incident. */
  healthy: boolean;
  running: boolean;
  /** Seconds since the latest run's last recorded output; null when none was recorded. */
  lastOutputAgeSeconds: number | null;
  lastExitCode: number | null;
  openIncidents: ReadonlyArray<{ kind: string; state: string; count: number }>;
  revives: number;
  kills: number;
  /** Runs of this name that ended stalled: the watchdog was withheld (or deadman exited 75). */
  stalls: number;
  /** Only the running deadman knows (its textfile): pings withheld now; null: not known, or no watchdog. */
  watchdogWithheld?: boolean | null;
}

export function runMetricFamilies(runs: readonly RunFacts[]): MetricFamily[] {
  const perRun = (name: string, help: string, type: MetricFamily['type'], value: (run: RunFacts) => number | null): MetricFamily => ({
    name, help, type,
    samples: runs.flatMap((run) => {
      const v = value(run);
      return v === null ? [] : [{ labels: { name: run.name }, value: v }];
    }),
  });
  return [
    perRun('deadman_run_healthy', 'Whether the latest run of this name is running with no open incident (1) or not (0).', 'gauge', (r) => (r.healthy ? 1 : 0)),
    perRun('deadman_run_running', 'Whether the latest run of this name is still running.', 'gauge', (r) => (r.running ? 1 : 0)),
    perRun('deadman_last_output_age_seconds', 'Seconds since the latest run last produced recorded output.', 'gauge', (r) => r.lastOutputAgeSeconds),
    perRun('deadman_last_exit_code', 'Exit code of the latest finished run of this name.', 'gauge', (r) => r.lastExitCode),
    {
      name: 'deadman_open_incidents',
      help: 'Incidents of this name not yet resolved or abandoned (escalated ones wait on a person), by kind and state.',
      type: 'gauge',
      samples: runs.flatMap((run) => run.openIncidents.map((i) => ({ labels: { name: run.name, kind: i.kind, state: i.state }, value: i.count }))),
    },
    perRun('deadman_revives_total', 'Sessions deadman revived for this name.', 'counter', (r) => r.revives),
    perRun('deadman_kills_total', 'Hung descendants deadman killed for this name.', 'counter', (r) => r.kills),
    perRun('deadman_stalls_total', 'Runs of this name that ended stalled (watchdog withheld or exit 75).', 'counter', (r) => r.stalls),
    perRun('deadman_watchdog_withheld', 'Whether the running deadman withholds the systemd watchdog pings now (only in its own textfile).', 'gauge',
      (r) => (r.watchdogWithheld === undefined || r.watchdogWithheld === null ? null : r.watchdogWithheld ? 1 : 0)),
  ];
}
