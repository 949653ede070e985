import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, tempDir, waitFor } from '../helpers/cli.ts';

/**
 * SIGHUP to `deadman run` outside systemd (issue 22.4; run-reload-systemd.test.ts has the unit):
 * a config that no longer validates, or whose keys do not work together, is refused in one
 * line and the running one kept; without a config file SIGHUP is ignored in one line. Neither
 * stops the work.
 */

function startRun(t: { after(fn: () => void): void }, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [deadmanBin, 'run', ...args, '--', 'sh', '-c', 'echo started; exec sleep 600'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return { child, exited, stderr: () => stderr };
}

test('a bad edit is refused with one line and the old config kept; the work goes on', async (t) => {
  const dir = tempDir(t);
  const config = join(dir, 'job.toml');
  writeFileSync(config, 'inactivity = "10min"\npoll = "200ms"\nstop_grace = "1s"\n');
  const run = startRun(t, ['--config', config], { ...process.env, STATE_DIRECTORY: join(dir, 'state'), NOTIFY_SOCKET: '' });
  await waitFor(() => /run \S+ · /.test(run.stderr()), 10_000, 'the start line');
  writeFileSync(config, 'inactivity = "soon"\n');
  run.child.kill('SIGHUP');
  await waitFor(() => /SIGHUP: config not reloaded/.test(run.stderr()), 5_000, 'the refusal');
  assert.match(run.stderr(), /SIGHUP: config not reloaded, the running one stays: .*job\.toml: inactivity = "soon"/);
  writeFileSync(config, 'inactivity = "1min"\nhung_timeout = "2min"\n');
  run.child.kill('SIGHUP');
  await waitFor(() => /SIGHUP: config not reloaded.*\n.*SIGHUP: config not reloaded/s.test(run.stderr()), 5_000, 'the second refusal');
  assert.match(run.stderr(), /the running one stays: hung_timeout \(2min\) is not shorter than inactivity \(1min\)/);
  writeFileSync(config, 'inactivity = "1s"\npoll = "200ms"\nstop_grace = "1s"\n');
  run.child.kill('SIGHUP');
  assert.equal(await run.exited, 75, `the last, good edit applies: a 1s inactivity catches the silent child\n${run.stderr()}`);
  assert.match(run.stderr(), /SIGHUP: re-read .*job\.toml: applied inactivity 10min → 1s; the work goes on untouched/);
  assert.equal(run.stderr().split('\n').filter((line) => line.includes('SIGHUP')).length, 3, 'one line per SIGHUP');
});

test('without a config file SIGHUP is ignored in one line', async (t) => {
  const dir = tempDir(t);
  const run = startRun(t, ['--poll', '200ms', '--stop-grace', '1s'], { ...process.env, STATE_DIRECTORY: join(dir, 'state'), NOTIFY_SOCKET: '', DEADMAN_CONFIG: '', XDG_CONFIG_HOME: dir });
  await waitFor(() => /run \S+ · /.test(run.stderr()), 10_000, 'the start line');
  run.child.kill('SIGHUP');
  await waitFor(() => /SIGHUP/.test(run.stderr()), 5_000, 'the note');
  assert.match(run.stderr(), /SIGHUP: deadman run was started without a config file, so there is nothing to re-read; ignored/);
  assert.equal(run.child.exitCode, null, 'still running');
  run.child.kill('SIGTERM');
  await run.exited;
  assert.match(run.stderr(), /SIGTERM: stopping/);
});
