import type { CommandModule, Options } from 'yargs';
import { renderPrometheus } from '../core/metrics/prometheus.ts';
import { runMetricFamilies } from '../core/metrics/run-metrics.ts';
import { loadRunFacts } from '../io/store/run-facts.ts';
import { printSync } from '../io/output/print-sync.ts';
import { stateOptions, type CommonArgs } from './shared/command-context.ts';
import { openExistingStore, readRows, settleLost } from './shared/open-existing-store.ts';
import type { RunFacts } from '../core/metrics/run-metrics.ts';

/**
 * `deadman metrics [--json]`: every run name's health, incidents, revives and kills in the
 * Prometheus text format, for a scrape or for node_exporter's textfile collector
 * (`deadman metrics > …/deadman.prom.tmp && mv …` from a timer). Reads; never creates a database.
 * A run whose deadman is gone is not running, however its last row reads, and its unsettled
 * incidents are ABANDONED (recorded so when this user owns the database: io/store/lost-runs.ts).
 */

interface MetricsArgs extends CommonArgs {
  json?: boolean;
}

/** Defined once: yargs shows them in --help, the lean reader (lean-readers.ts) parses with them. */
export const METRICS_OPTIONS = {
  json: { type: 'boolean', describe: 'the same facts as JSON (snake_case)' },
  ...stateOptions,
} as const satisfies Record<string, Options>;

export const metricsCommand: CommandModule<object, MetricsArgs> = {
  command: 'metrics',
  describe: "print every run's health, incidents, revives and kills as Prometheus text (or --json)",
  builder: (y) => y.options(METRICS_OPTIONS),
  handler: async (args) => {
    const { store, database, context } = await openExistingStore(args);
    const now = context.clock.wall();
    let facts: RunFacts[] = [];
    try {
      if (store) facts = readRows(database, () => loadRunFacts(store, { lost: settleLost(store, context, now) }));
    } finally {
      store?.close();
    }
    if (args.json) {
      const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
      const rows = facts.map((f) => ({
        name: f.name,
        healthy: f.healthy,
        running: f.running,
        state: f.state,
        started_at: iso(f.startedAt),
        ended_at: iso(f.endedAt),
        last_output_at: iso(f.lastOutputAt),
        last_output_age_seconds: f.lastOutputAt === null ? null : Math.max(0, now - f.lastOutputAt) / 1000,
        last_exit_code: f.lastExitCode,
        open_incidents: f.openIncidents,
        revives: f.revives,
        kills: f.kills,
        stalls: f.stalls,
      }));
      printSync(`${JSON.stringify(rows, null, 2)}\n`);
      return;
    }
    // Printed live: the output's age is true as it is read (a textfile holds only the timestamp).
    printSync(renderPrometheus(runMetricFamilies(facts, now)));
  },
};
