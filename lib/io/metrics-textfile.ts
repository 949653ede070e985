import { renderPrometheus } from '../core/metrics/prometheus.ts';
import { runMetricFamilies, type RunFacts } from '../core/metrics/run-metrics.ts';
import { writeFileAtomically } from './atomic-write.ts';

/**
 * `[metrics] textfile`: the running deadman's own metrics as a .prom file for node_exporter's
 * textfile collector, rewritten atomically (temp file ending in .tmp, which the collector
 * skips, then rename) at most once per interval and once more at exit. The facts come from the
 * records; health and the withheld watchdog from the run itself, which knows them first. A
 * write that fails is said once and retried: metrics never stop the run.
 */

export interface MetricsTextfile {
  path: string;
  name: string;
  intervalMs: number;
  /** Whether a systemd watchdog is fed: then "unhealthy" means the pings are withheld. */
  watchdog: boolean;
  /** This run name's facts from the database; null when it cannot be read now. */
  facts: () => RunFacts | null;
  onError: (message: string) => void;
}

/** The path with `{name}` replaced, so one directory serves every run. */
export function metricsTextfilePath(template: string, name: string): string {
  return template.replaceAll('{name}', name);
}

export function metricsTextfileWriter(options: MetricsTextfile) {
  let lastWrite = -Infinity;
  let failing = false;
  return ({ healthy, quietMs }: { healthy: boolean; quietMs: number | null }, monotonicMs: number, final = false): void => {
    if (!final && monotonicMs - lastWrite < options.intervalMs) return;
    lastWrite = monotonicMs;
    const recorded = options.facts() ?? unrecorded(options.name);
    // Plain output is not stored line by line: the run's own clock knows the output age.
    const facts: RunFacts = {
      ...recorded, healthy: healthy && !final, running: !final, watchdogWithheld: options.watchdog && !final ? !healthy : null,
      lastOutputAgeSeconds: quietMs === null ? recorded.lastOutputAgeSeconds : quietMs / 1000,
    };
    try {
      writeMetricsTextfile(options.path, facts);
      failing = false;
    } catch (error) {
      if (!failing) options.onError(`cannot write the metrics textfile ${options.path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); trying again`);
      failing = true;
    }
  };
}

/** One run's facts as a .prom file, replaced atomically. */
export function writeMetricsTextfile(path: string, facts: RunFacts): void {
  writeFileAtomically(path, renderPrometheus(runMetricFamilies([facts])), 0o644);
}

/** While the database cannot be read: what the run itself knows, and no totals. */
function unrecorded(name: string): RunFacts {
  return { name, healthy: false, running: true, lastOutputAgeSeconds: null, lastExitCode: null, openIncidents: [], revives: 0, kills: 0, stalls: 0 };
}
