import type { MetricFamily } from './prometheus.ts';
import { STATUS_STATES, type StatusState } from '../status/run-status-rows.ts';

/**
 * What a fleet scrapes about each run name: the facts the database (or the running deadman)
 * holds, turned into metric families. One row per run name, its latest run. Pure. Times are
 * `*_timestamp_seconds` (what a file can hold and still be true when its writer is gone); an age
 * only where it is computed as it is scraped (`deadman metrics` printed live, `scrapedAt`).
 */
export interface RunFacts {
  name: string;
  /** The latest run is still going and has no open incident. */
  healthy: boolean;
  running: boolean;
  /** The latest run's state in `status`'s words (core/status/run-status-rows.ts), from the database alone. */
  state: StatusState;
  /** Wall-clock ms: the latest run's start, its end (null while it runs), its last output (null when none was recorded). */
  startedAt: number;
  endedAt: number | null;
  lastOutputAt: number | null;
  lastExitCode: number | null;
  openIncidents: ReadonlyArray<{ kind: string; state: string; count: number }>;
  revives: number;
  kills: number;
  /** Runs of this name that ended stalled: the watchdog was withheld (or deadman exited 75). */
  stalls: number;
  /** Only the running deadman knows (its textfile): pings withheld now; null: not known, or no watchdog. */
  watchdogWithheld?: boolean | null;
}

const seconds = (ms: number | null) => (ms === null ? null : ms / 1000);

/** One family with a sample per run, `value` null leaving that run out. */
function perRun(
  runs: readonly RunFacts[],
  name: string,
  help: string,
  type: MetricFamily['type'],
  value: (run: RunFacts) => number | null,
): MetricFamily {
  return {
    name,
    help,
    type,
    samples: runs.flatMap((run) => {
      const v = value(run);
      return v === null ? [] : [{ labels: { name: run.name }, value: v }];
    }),
  };
}

/** `scrapedAt` (wall ms): this is printed live, so the output's age is true as it is read; a file gets none. */
export function runMetricFamilies(runs: readonly RunFacts[], scrapedAt: number | null = null): MetricFamily[] {
  return [...stateFamilies(runs, scrapedAt), ...outcomeFamilies(runs)];
}

/** Where each run is: healthy, running, its state, when it started, ended and last spoke. */
function stateFamilies(runs: readonly RunFacts[], scrapedAt: number | null): MetricFamily[] {
  const perRunOf = perRun.bind(null, runs);
  const age =
    scrapedAt === null
      ? []
      : [
          perRunOf(
            'deadman_last_output_age_seconds',
            'Seconds since the latest run last produced recorded output, as of this scrape.',
            'gauge',
            (r) => (r.lastOutputAt === null ? null : Math.max(0, scrapedAt - r.lastOutputAt) / 1000),
          ),
        ];
  return [
    perRunOf(
      'deadman_run_healthy',
      'Whether the latest run of this name is running with no open incident (1) or not (0).',
      'gauge',
      (r) => (r.healthy ? 1 : 0),
    ),
    perRunOf('deadman_run_running', 'Whether the latest run of this name is still running.', 'gauge', (r) =>
      r.running ? 1 : 0,
    ),
    {
      name: 'deadman_run_state',
      help: "The latest run's state as deadman status names it (1 for its state, 0 for the others).",
      type: 'gauge',
      samples: runs.flatMap((run) =>
        STATUS_STATES.map((state) => ({ labels: { name: run.name, state }, value: run.state === state ? 1 : 0 })),
      ),
    },
    perRunOf(
      'deadman_run_start_timestamp_seconds',
      'When the latest run of this name started (Unix seconds).',
      'gauge',
      (r) => seconds(r.startedAt),
    ),
    perRunOf(
      'deadman_run_end_timestamp_seconds',
      'When the latest run of this name ended (Unix seconds); absent while it runs.',
      'gauge',
      (r) => seconds(r.endedAt),
    ),
    perRunOf(
      'deadman_last_output_timestamp_seconds',
      'When the latest run last produced output (Unix seconds).',
      'gauge',
      (r) => seconds(r.lastOutputAt),
    ),
    ...age,
  ];
}

/** What the runs came to: the last exit code, open incidents, and what deadman did about them. */
function outcomeFamilies(runs: readonly RunFacts[]): MetricFamily[] {
  const perRunOf = perRun.bind(null, runs);
  return [
    perRunOf(
      'deadman_last_exit_code',
      'Exit code of the latest finished run of this name.',
      'gauge',
      (r) => r.lastExitCode,
    ),
    {
      name: 'deadman_open_incidents',
      help: 'Incidents of this name not yet settled (escalated ones wait on a person), by kind and state.',
      type: 'gauge',
      samples: runs.flatMap((run) =>
        run.openIncidents.map((i) => ({ labels: { name: run.name, kind: i.kind, state: i.state }, value: i.count })),
      ),
    },
    perRunOf('deadman_revives_total', 'Sessions deadman revived for this name.', 'counter', (r) => r.revives),
    perRunOf('deadman_kills_total', 'Hung descendants deadman killed for this name.', 'counter', (r) => r.kills),
    perRunOf(
      'deadman_stalls_total',
      'Runs of this name that ended stalled (watchdog withheld or exit 75).',
      'counter',
      (r) => r.stalls,
    ),
    perRunOf(
      'deadman_watchdog_withheld',
      'Whether the running deadman withholds the systemd watchdog pings now (only in its own textfile).',
      'gauge',
      (r) => (r.watchdogWithheld === undefined || r.watchdogWithheld === null ? null : r.watchdogWithheld ? 1 : 0),
    ),
  ];
}
