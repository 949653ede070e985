import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { metricsTextfilePath, metricsTextfileWriter } from '../../../lib/io/health/metrics-textfile.ts';
import type { RunFacts } from '../../../lib/core/metrics/run-metrics.ts';
import { tempDir } from '../../helpers/cli.ts';
import { parsePrometheus } from '../../helpers/prometheus.ts';

const facts: RunFacts = {
  name: 'job',
  healthy: true,
  running: true,
  state: 'running',
  startedAt: 1_000_000,
  endedAt: null,
  lastOutputAt: 1_000_500,
  lastExitCode: null,
  openIncidents: [{ kind: 'OUTPUT_INACTIVITY', state: 'OPEN', count: 1 }],
  revives: 2,
  kills: 1,
  stalls: 0,
};

test('under a watchdog, an unhealthy run reports the pings withheld; writes wait for the interval, the final one does not', (t) => {
  const dir = tempDir(t);
  const path = metricsTextfilePath(join(dir, 'deadman-{name}.prom'), 'job');
  assert.equal(path, join(dir, 'deadman-job.prom'));
  const errors: string[] = [];
  const write = metricsTextfileWriter({
    path,
    name: 'job',
    intervalMs: 2_000,
    watchdog: true,
    startedAt: 1_000_000,
    facts: () => facts,
    onError: (m) => errors.push(m),
  });
  const value = (metric: string, labels: Record<string, string> = {}) =>
    parsePrometheus(readFileSync(path, 'utf8')).samples.find(
      (s) => s.name === metric && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
    )?.value;
  write({ healthy: false, lastOutputAt: 1_002_000 }, 0);
  assert.deepEqual(
    [
      value('deadman_watchdog_withheld'),
      value('deadman_run_healthy'),
      value('deadman_open_incidents', { kind: 'OUTPUT_INACTIVITY', state: 'OPEN' }),
    ],
    [1, 0, 1],
  );
  write({ healthy: true, lastOutputAt: 1_002_000 }, 1_000);
  assert.equal(value('deadman_watchdog_withheld'), 1, 'within the interval: not rewritten');
  write({ healthy: true, lastOutputAt: 1_002_000 }, 2_500);
  assert.deepEqual(
    [
      value('deadman_watchdog_withheld'),
      value('deadman_run_healthy'),
      value('deadman_revives_total'),
      value('deadman_kills_total'),
    ],
    [0, 1, 2, 1],
  );
  assert.equal(value('deadman_last_output_timestamp_seconds'), 1_002, "the run's own last output, not the records'");
  assert.equal(
    value('deadman_last_output_age_seconds'),
    undefined,
    'no age in a file: it would freeze when the writer dies',
  );
  write({ healthy: false, lastOutputAt: null }, 2_600, true);
  assert.equal(
    value('deadman_last_output_timestamp_seconds'),
    1_002,
    'the final word keeps the last output the run saw',
  );
  assert.deepEqual(
    [value('deadman_run_running'), value('deadman_watchdog_withheld')],
    [0, undefined],
    'the final word: not running, no watchdog any more',
  );
  assert.deepEqual(errors, []);
});

test('a directory that cannot be written is said once, and the writer keeps trying', (t) => {
  const dir = tempDir(t);
  const errors: string[] = [];
  const write = metricsTextfileWriter({
    path: join(dir, 'missing', 'x.prom'),
    name: 'job',
    intervalMs: 0,
    watchdog: false,
    startedAt: 1_000_000,
    facts: () => null,
    onError: (m) => errors.push(m),
  });
  write({ healthy: true, lastOutputAt: 1_002_000 }, 0);
  write({ healthy: true, lastOutputAt: 1_002_000 }, 1);
  assert.equal(errors.length, 1);
  assert.match(errors[0]!, /cannot write the metrics textfile .*missing\/x\.prom \(ENOENT\); trying again/);
});
