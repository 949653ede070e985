import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { parsePrometheus, type ParsedSample } from '../helpers/prometheus.ts';

test('deadman metrics shows a stalled and a completed run as Prometheus text that parses', async (t) => {
  const dir = tempDir(t);
  const database = join(dir, 'deadman.db');
  const env = { ...process.env, STATE_DIRECTORY: dir, DEADMAN_CONFIG: '' };
  const stuck = await runDeadman(
    [
      'run',
      '--name',
      'stuck',
      '--database',
      database,
      '--inactivity',
      '1s',
      '--poll',
      '100ms',
      '--stop-grace',
      '1s',
      '--',
      'sleep',
      '30',
    ],
    { env },
  );
  assert.equal(stuck.code, 75, stuck.stderr);
  const fine = await runDeadman(['run', '--name', 'fine', '--database', database, '--', 'true'], { env });
  assert.equal(fine.code, 0, fine.stderr);

  const metrics = await runDeadman(['metrics', '--database', database], { env });
  assert.equal(metrics.code, 0, metrics.stderr);
  const { samples } = parsePrometheus(metrics.stdout);
  const value = (name: string, labels: Record<string, string>) =>
    samples.find((s: ParsedSample) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
      ?.value;
  assert.equal(value('deadman_last_exit_code', { name: 'stuck' }), 75);
  assert.equal(value('deadman_stalls_total', { name: 'stuck' }), 1);
  assert.equal(value('deadman_open_incidents', { name: 'stuck', kind: 'OUTPUT_INACTIVITY', state: 'ESCALATED' }), 1);
  assert.equal(value('deadman_run_healthy', { name: 'stuck' }), 0);
  assert.equal(value('deadman_last_exit_code', { name: 'fine' }), 0);
  assert.equal(value('deadman_stalls_total', { name: 'fine' }), 0);

  const json = await runDeadman(['metrics', '--json', '--database', database], { env });
  const rows = JSON.parse(json.stdout) as Array<{ name: string; last_exit_code: number; stalls: number }>;
  assert.deepEqual(
    rows.map((r) => [r.name, r.last_exit_code, r.stalls]),
    [
      ['fine', 0, 0],
      ['stuck', 75, 1],
    ],
  );
});

test('with no database there are no runs, and nothing is created', async (t) => {
  const dir = tempDir(t);
  const metrics = await runDeadman(['metrics', '--database', join(dir, 'none.db')]);
  assert.equal(metrics.code, 0, metrics.stderr);
  assert.equal(existsSync(join(dir, 'none.db')), false);
  assert.deepEqual(parsePrometheus(metrics.stdout).samples, []);
});
