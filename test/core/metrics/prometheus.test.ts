import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderPrometheus } from '../../../lib/core/metrics/prometheus.ts';
import { runMetricFamilies } from '../../../lib/core/metrics/run-metrics.ts';
import { parsePrometheus } from '../../helpers/prometheus.ts';

test('label values with quotes, backslashes and line breaks survive the round trip', () => {
  const text = renderPrometheus([{ name: 'x_total', help: 'a\nb', type: 'counter', samples: [{ labels: { name: 'a"b\\c\nd' }, value: 2 }] }]);
  assert.equal(text, '# HELP x_total a\\nb\n# TYPE x_total counter\nx_total{name="a\\"b\\\\c\\nd"} 2\n');
  assert.deepEqual(parsePrometheus(text).samples, [{ name: 'x_total', labels: { name: 'a"b\\c\nd' }, value: 2 }]);
});

test('run facts become families that parse; unknown values are left out, not made up', () => {
  const text = renderPrometheus(runMetricFamilies([
    { name: 'review', healthy: false, running: false, lastOutputAgeSeconds: null, lastExitCode: 75, openIncidents: [{ kind: 'OUTPUT_INACTIVITY', state: 'ESCALATED', count: 1 }], revives: 2, kills: 1, stalls: 3 },
  ]));
  const { samples, types } = parsePrometheus(text);
  assert.equal(types.get('deadman_revives_total'), 'counter');
  assert.equal(samples.some((s) => s.name === 'deadman_last_output_age_seconds'), false);
  assert.deepEqual(samples.find((s) => s.name === 'deadman_open_incidents'), { name: 'deadman_open_incidents', labels: { name: 'review', kind: 'OUTPUT_INACTIVITY', state: 'ESCALATED' }, value: 1 });
  assert.throws(() => renderPrometheus([{ name: 'bad-name', help: '', type: 'gauge', samples: [] }]), /not valid/);
});

test('the reader refuses what a scrape would refuse', () => {
  assert.throws(() => parsePrometheus('x 1\n'), /no HELP and TYPE/);
  assert.throws(() => parsePrometheus('# HELP x h\n# TYPE x gauge\nx{a="\\q"} 1\n'), /bad labels/);
  assert.throws(() => parsePrometheus('# HELP x h\n# TYPE x gauge\nx one\n'), /not a number/);
});
