import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderPrometheus } from '../../../lib/core/metrics/prometheus.ts';
import { runMetricFamilies, type RunFacts } from '../../../lib/core/metrics/run-metrics.ts';
import { parsePrometheus } from '../../helpers/prometheus.ts';

test('label values with quotes, backslashes and line breaks survive the round trip', () => {
  const text = renderPrometheus([
    { name: 'x_total', help: 'a\nb', type: 'counter', samples: [{ labels: { name: 'a"b\\c\nd' }, value: 2 }] },
  ]);
  assert.equal(text, '# HELP x_total a\\nb\n# TYPE x_total counter\nx_total{name="a\\"b\\\\c\\nd"} 2\n');
  assert.deepEqual(parsePrometheus(text).samples, [{ name: 'x_total', labels: { name: 'a"b\\c\nd' }, value: 2 }]);
});

const review: RunFacts = {
  name: 'review',
  healthy: false,
  running: false,
  state: 'stalled',
  startedAt: 1_700_000_000_000,
  endedAt: 1_700_000_090_500,
  lastOutputAt: null,
  lastExitCode: 75,
  openIncidents: [{ kind: 'OUTPUT_INACTIVITY', state: 'ESCALATED', count: 1 }],
  revives: 2,
  kills: 1,
  stalls: 3,
};

test('run facts become families that parse; unknown values are left out, not made up', () => {
  const text = renderPrometheus(runMetricFamilies([review]));
  const { samples, types } = parsePrometheus(text);
  assert.equal(types.get('deadman_revives_total'), 'counter');
  assert.equal(
    samples.some(
      (s) => s.name === 'deadman_last_output_age_seconds' || s.name === 'deadman_last_output_timestamp_seconds',
    ),
    false,
  );
  const value = (name: string, labels: Record<string, string> = {}) =>
    samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
  assert.deepEqual(
    [value('deadman_run_start_timestamp_seconds'), value('deadman_run_end_timestamp_seconds')],
    [1_700_000_000, 1_700_000_090.5],
  );
  assert.deepEqual(
    samples.filter((s) => s.name === 'deadman_run_state' && s.value === 1).map((s) => s.labels.state),
    ['stalled'],
    'one state set, the rest 0',
  );
  assert.deepEqual(
    samples.find((s) => s.name === 'deadman_open_incidents'),
    {
      name: 'deadman_open_incidents',
      labels: { name: 'review', kind: 'OUTPUT_INACTIVITY', state: 'ESCALATED' },
      value: 1,
    },
  );
  assert.throws(() => renderPrometheus([{ name: 'bad-name', help: '', type: 'gauge', samples: [] }]), /not valid/);
});

test('only a live scrape carries an age, and it is computed as of the scrape', () => {
  const spoke = { ...review, lastOutputAt: 1_700_000_080_000 };
  const age = (scrapedAt: number | null) =>
    parsePrometheus(renderPrometheus(runMetricFamilies([spoke], scrapedAt))).samples.find(
      (s) => s.name === 'deadman_last_output_age_seconds',
    )?.value;
  assert.equal(age(null), undefined, 'a file holds no age: it would freeze when its writer dies');
  assert.equal(age(1_700_000_093_000), 13);
});

test('the reader refuses what a scrape would refuse', () => {
  assert.throws(() => parsePrometheus('x 1\n'), /no HELP and TYPE/);
  assert.throws(() => parsePrometheus('# HELP x h\n# TYPE x gauge\nx{a="\\q"} 1\n'), /bad labels/);
  assert.throws(() => parsePrometheus('# HELP x h\n# TYPE x gauge\nx one\n'), /not a number/);
});
