import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { repoRoot, runDeadman, tempDir } from '../helpers/cli.ts';
import { parsePrometheus } from '../helpers/prometheus.ts';
import { skipUnlessInstalled } from '../helpers/required-tool.ts';

/**
 * contrib/prometheus/deadman.rules.yml under promtool (Debian's `prometheus` package; .ci/run
 * installs it): its own unit tests pass, and the textfile a real `deadman run` leaves — one that
 * stalls, then the same name completing — fires what it should and nothing else, as node_exporter's
 * textfile collector would serve that file (every sample, plus the file's mtime by its full path).
 */
const rules = join(repoRoot, 'contrib', 'prometheus', 'deadman.rules.yml');
const skip = skipUnlessInstalled('promtool');

function promtool(args: string[], cwd: string) {
  const ran = spawnSync('promtool', args, { cwd, encoding: 'utf8' });
  return { code: ran.status, out: `${ran.stdout}${ran.stderr}` };
}

/** The file's samples as promtool input series, constant over the test, with the labels a scrape of node_exporter adds. */
function textfileSeries(text: string, file: string): Array<{ series: string; values: string }> {
  const scrape = { instance: 'host:9100', job: 'node' };
  const series = (name: string, labels: Record<string, string>, value: number) => ({
    series: `${name}{${Object.entries({ ...labels, ...scrape })
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join(',')}}`,
    values: `${value}x15`,
  });
  // Written at time 0 and never again: 15 minutes later it is as stale as a file gets.
  return [
    ...parsePrometheus(text).samples.map((s) => series(s.name, s.labels, s.value)),
    series('node_textfile_mtime_seconds', { file }, 0),
  ];
}

/** The alerts firing 10 minutes in, from promtool's own evaluation of the rules (the ALERTS series). */
function firing(dir: string, text: string, file: string, expected: Array<Record<string, string>>) {
  const tests = {
    rule_files: [rules],
    evaluation_interval: '1m',
    tests: [
      {
        interval: '1m',
        input_series: textfileSeries(text, file),
        promql_expr_test: [
          {
            expr: 'ALERTS{alertstate="firing"}',
            eval_time: '10m',
            exp_samples: expected.map((labels) => ({
              labels: `ALERTS{${Object.entries({ alertstate: 'firing', ...labels })
                .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
                .join(',')}}`,
              value: 1,
            })),
          },
        ],
      },
    ],
  };
  const path = join(dir, 'from-textfile.tests.yml');
  writeFileSync(path, stringify(tests));
  return promtool(['test', 'rules', path], dir);
}

test('promtool checks the shipped rules and passes their unit tests', { skip }, () => {
  const dir = join(repoRoot, 'contrib', 'prometheus');
  const checked = promtool(['check', 'rules', 'deadman.rules.yml'], dir);
  assert.equal(checked.code, 0, checked.out);
  const tested = promtool(['test', 'rules', 'deadman.tests.yml'], dir);
  assert.equal(tested.code, 0, tested.out);
});

test(
  "a stalled run's real textfile fires DeadmanRunStalled and DeadmanPersonNeeded; after the name completes, nothing fires",
  { skip },
  async (t) => {
    const dir = tempDir(t);
    const collector = join(dir, 'collector');
    mkdirSync(collector);
    const config = join(dir, 'deadman.toml');
    writeFileSync(
      config,
      `state_dir = ${JSON.stringify(join(dir, 'state'))}\n[metrics]\ntextfile = "${collector}/deadman-{name}.prom"\n`,
    );
    const env = { ...process.env, DEADMAN_CONFIG: '', NOTIFY_SOCKET: '', STATE_DIRECTORY: '' };
    const file = join(collector, 'deadman-nightly.prom');
    const run = (command: string[], options: string[] = []) =>
      runDeadman(['run', '--config', config, '--name', 'nightly', ...options, '--', ...command], { cwd: dir, env });

    const stalled = await run(
      ['sh', '-c', 'echo working; sleep 60'],
      ['--inactivity', '1s', '--poll', '200ms', '--stop-grace', '1s'],
    );
    assert.equal(stalled.code, 75, stalled.stderr);
    const stalledText = readFileSync(file, 'utf8');
    const labels = { instance: 'host:9100', job: 'node', name: 'nightly' };
    const fired = firing(dir, stalledText, file, [
      { alertname: 'DeadmanPersonNeeded', severity: 'warning', ...labels },
      { alertname: 'DeadmanRunStalled', severity: 'warning', state: 'stalled', ...labels },
    ]);
    assert.equal(fired.code, 0, `${fired.out}\n${stalledText}`);
    // The check can fail: the same file does not pass for an expectation of nothing.
    assert.notEqual(firing(dir, stalledText, file, []).code, 0, 'promtool saw the alerts');

    const completed = await run(['true']);
    assert.equal(completed.code, 0, completed.stderr);
    const completedText = readFileSync(file, 'utf8');
    const quiet = firing(dir, completedText, file, []);
    assert.equal(quiet.code, 0, `${quiet.out}\n${completedText}`);
  },
);
