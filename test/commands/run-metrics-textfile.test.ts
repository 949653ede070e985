import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, tempDir, waitFor } from '../helpers/cli.ts';
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
  const child = spawn(process.execPath, [deadmanBin, 'run', '--config', config, '--name', 'textfile-run', '--', 'sh', '-c', `until [ -e ${gate} ]; do echo tick; sleep 0.2; done; exit 3`],
    { env, stdio: 'ignore' });
  t.after(() => child.kill('SIGKILL'));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const host = measureHostDelay();

  const running = await waitFor(() => {
    try {
      const text = readFileSync(file, 'utf8');
      return sample(text, 'deadman_run_running') === 1 && sample(text, 'deadman_run_healthy') === 1 ? text : null;
    } catch {
      return null;
    }
  }, 10_000, 'a textfile saying running and healthy');
  const { types } = parsePrometheus(running);
  for (const family of ['deadman_run_healthy', 'deadman_last_output_age_seconds', 'deadman_open_incidents', 'deadman_revives_total', 'deadman_kills_total', 'deadman_watchdog_withheld', 'deadman_last_exit_code']) {
    assert.ok(types.has(family), `${family} is missing:\n${running}`);
  }
  assert.ok(sample(running, 'deadman_last_output_age_seconds')! < host.scaled(5), running);
  assert.equal(sample(running, 'deadman_watchdog_withheld'), undefined, 'no watchdog here: nothing withheld to report');

  writeFileSync(gate, '');
  assert.equal(await exited, 3);
  const last = readFileSync(file, 'utf8');
  assert.deepEqual([sample(last, 'deadman_run_running'), sample(last, 'deadman_run_healthy'), sample(last, 'deadman_last_exit_code')], [0, 0, 3], last);
  assert.deepEqual(readdirSync(collector), ['deadman-textfile-run.prom'], 'no temp file is left for the collector');
});
