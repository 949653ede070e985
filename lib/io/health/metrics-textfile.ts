import { resolve } from 'node:path';
import { renderPrometheus } from '../../core/metrics/prometheus.ts';
import { runMetricFamilies, type RunFacts } from '../../core/metrics/run-metrics.ts';
import { writeFileAtomically } from '../files/atomic-write.ts';

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
  /** Wall-clock ms the run started, for a file written while the database cannot be read. */
  startedAt: number;
  /** This run name's facts from the database; null when it cannot be read now. */
  facts: () => RunFacts | null;
  onError: (message: string) => void;
}

/** The path with `{name}` replaced, so one directory serves every run. */
export function metricsTextfilePath(template: string, name: string): string {
  return template.replaceAll('{name}', name);
}

/** The run's own file, absolute, as its run row records it (readers elsewhere find it there); null without `[metrics] textfile`. */
export function metricsTextfileOf(template: string | undefined, name: string): string | null {
  return template === undefined ? null : resolve(metricsTextfilePath(template, name));
}

export function metricsTextfileWriter(options: MetricsTextfile) {
  let lastWrite = -Infinity;
  let failing = false;
  let spokeAt: number | null = null;
  return (
    { healthy, lastOutputAt }: { healthy: boolean; lastOutputAt: number | null },
    monotonicMs: number,
    final = false,
  ): void => {
    if (!final && monotonicMs - lastWrite < options.intervalMs) return;
    lastWrite = monotonicMs;
    spokeAt = lastOutputAt ?? spokeAt;
    const recorded = options.facts() ?? unrecorded(options.name, options.startedAt);
    // Plain output is not stored line by line: the run's own clock knows when it last spoke.
    const facts: RunFacts = {
      ...recorded,
      healthy: healthy && !final,
      running: !final,
      watchdogWithheld: options.watchdog && !final ? !healthy : null,
      lastOutputAt: spokeAt ?? recorded.lastOutputAt,
    };
    try {
      writeMetricsTextfile(options.path, facts);
      failing = false;
    } catch (error) {
      if (!failing)
        options.onError(
          `cannot write the metrics textfile ${options.path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); trying again`,
        );
      failing = true;
    }
  };
}

/** One run's facts as a .prom file, replaced atomically. */
export function writeMetricsTextfile(path: string, facts: RunFacts): void {
  writeFileAtomically(path, renderPrometheus(runMetricFamilies([facts])), 0o644);
}

/** While the database cannot be read: what the run itself knows, and no totals. */
function unrecorded(name: string, startedAt: number): RunFacts {
  return {
    name,
    healthy: false,
    running: true,
    state: 'running',
    startedAt,
    endedAt: null,
    lastOutputAt: null,
    lastExitCode: null,
    openIncidents: [],
    revives: 0,
    kills: 0,
    stalls: 0,
  };
}
