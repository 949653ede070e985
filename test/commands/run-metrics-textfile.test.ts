import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, runDeadman, tempDir, waitFor } from '../helpers/cli.ts';
import { parsePrometheus } from '../helpers/prometheus.ts';
import { measureHostDelay } from '../helpers/host-delay.ts';

/**
 * `[metrics] textfile`: the running deadman keeps a .prom file for node_exporter's textfile
 * collector, in the strict Prometheus text format, replaced atomically (no partial file, no
 * temp file the collector would read), and leaves its last word at exit.
 */
function sample(text: string, name: string): number | undefined {
  return parsePrometheus(text).samples.find((s) => s.name === name && s.labels.name === 'textfile-run')?.value;
}

test('the running deadman writes its metrics textfile while it runs and once more at exit', async (t) => {
  const dir = tempDir(t);
  const collector = join(dir, 'textfile');
  mkdirSync(collector);
  const config = join(dir, 'deadman.toml');
  writeFileSync(config, `poll = "250ms"\n[metrics]\ntextfile = "${collector}/deadman-{name}.prom"\n`);
  const file = join(collector, 'deadman-textfile-run.prom');
  const env = { ...process.env, STATE_DIRECTORY: join(dir, 'state'), DEADMAN_CONFIG: '', NOTIFY_SOCKET: '' };
  const gate = join(dir, 'gate');
  // Talks until the gate file appears, then exits 3.
  const child = spawn(
    process.execPath,
    [
      deadmanBin,
      'run',
      '--config',
      config,
      '--name',
      'textfile-run',
      '--',
      'sh',
      '-c',
      `until [ -e ${gate} ]; do echo tick; sleep 0.2; done; exit 3`,
    ],
    { env, stdio: 'ignore' },
  );
  t.after(() => child.kill('SIGKILL'));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const host = measureHostDelay();

  const running = await waitFor(
    () => {
      try {
        const text = readFileSync(file, 'utf8');
        return sample(text, 'deadman_run_running') === 1 && sample(text, 'deadman_run_healthy') === 1 ? text : null;
      } catch {
        return null;
      }
    },
    10_000,
    'a textfile saying running and healthy',
  );
  const { types } = parsePrometheus(running);
  for (const family of [
    'deadman_run_healthy',
    'deadman_run_state',
    'deadman_run_start_timestamp_seconds',
    'deadman_last_output_timestamp_seconds',
    'deadman_open_incidents',
    'deadman_revives_total',
    'deadman_kills_total',
    'deadman_watchdog_withheld',
    'deadman_last_exit_code',
  ]) {
    assert.ok(types.has(family), `${family} is missing:\n${running}`);
  }
  assert.ok(Date.now() / 1000 - sample(running, 'deadman_last_output_timestamp_seconds')! < host.scaled(5), running);
  assert.equal(types.has('deadman_last_output_age_seconds'), false, 'an age in a file freezes when its writer dies');
  assert.equal(sample(running, 'deadman_watchdog_withheld'), undefined, 'no watchdog here: nothing withheld to report');

  writeFileSync(gate, '');
  assert.equal(await exited, 3);
  const last = readFileSync(file, 'utf8');
  assert.deepEqual(
    [sample(last, 'deadman_run_running'), sample(last, 'deadman_run_healthy'), sample(last, 'deadman_last_exit_code')],
    [0, 0, 3],
    last,
  );
  assert.deepEqual(readdirSync(collector), ['deadman-textfile-run.prom'], 'no temp file is left for the collector');
});

test("after a SIGKILL the textfile tells the truth whichever reader comes first: a plain metrics without the run's config, then the unit's health", async (t) => {
  const dir = tempDir(t);
  const collector = join(dir, 'textfile');
  mkdirSync(collector);
  const state = join(dir, 'state');
  const config = join(dir, 'deadman.toml');
  writeFileSync(
    config,
    `poll = "250ms"\nstate_dir = ${JSON.stringify(state)}\n[metrics]\ntextfile = "${collector}/deadman-{name}.prom"\n`,
  );
  const file = join(collector, 'deadman-textfile-run.prom');
  const env = { ...process.env, STATE_DIRECTORY: '', DEADMAN_CONFIG: '', NOTIFY_SOCKET: '' };
  const gate = join(dir, 'gate');
  // The command outlives its killed deadman until the gate file appears (written before the directory goes).
  const child = spawn(
    process.execPath,
    [
      deadmanBin,
      'run',
      '--config',
      config,
      '--name',
      'textfile-run',
      '--',
      'sh',
      '-c',
      `until [ -e ${gate} ]; do echo tick; sleep 0.2; done`,
    ],
    { env, stdio: 'ignore' },
  );
  t.after(() => child.kill('SIGKILL'));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  await waitFor(
    () => {
      try {
        return sample(readFileSync(file, 'utf8'), 'deadman_run_running') === 1;
      } catch {
        return false;
      }
    },
    10_000,
    'a textfile saying running',
  );
  child.kill('SIGKILL');
  await exited;
  writeFileSync(gate, '');

  // The first reader knows only where the database is: no --config, and no deadman.toml where it runs, so no [metrics] template.
  const elsewhere = join(dir, 'elsewhere');
  mkdirSync(elsewhere);
  const metrics = await runDeadman(['metrics', '--state-dir', state], { cwd: elsewhere, env });
  assert.equal(metrics.code, 0, metrics.stderr);
  assert.equal(sample(metrics.stdout, 'deadman_run_running'), 0);
  const afterMetrics = readFileSync(file, 'utf8');
  assert.deepEqual(
    [sample(afterMetrics, 'deadman_run_running'), sample(afterMetrics, 'deadman_run_healthy')],
    [0, 0],
    afterMetrics,
  );
  // What the unit's ExecStopPost= runs next finds the run settled already, and leaves the file true.
  const health = await runDeadman(['health', '--quiet', '--name', 'textfile-run', '--config', config], {
    cwd: dir,
    env,
  });
  assert.equal(health.code, 1);
  const last = readFileSync(file, 'utf8');
  assert.deepEqual([sample(last, 'deadman_run_running'), sample(last, 'deadman_run_healthy')], [0, 0], last);
  assert.equal(
    parsePrometheus(last).samples.find((s) => s.name === 'deadman_run_state' && s.value === 1)?.labels.state,
    'killed',
    last,
  );
});
