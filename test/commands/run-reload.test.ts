import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, runProgram, tempDir, waitFor } from '../helpers/cli.ts';
import { quoteCommandLine } from '../../lib/core/units/systemd-quote.ts';

/**
 * SIGHUP to `deadman run` outside systemd (issue 22.4; run-reload-systemd.test.ts has the unit):
 * a config that no longer validates, or whose keys do not work together, is refused in one
 * line and the running one kept; without a config file SIGHUP is ignored in one line. Neither
 * stops the work.
 */

function startRun(t: { after(fn: () => void): void }, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(
    process.execPath,
    [deadmanBin, 'run', ...args, '--', 'sh', '-c', 'echo started; exec sleep 600'],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
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
  const run = startRun(t, ['--config', config], {
    ...process.env,
    STATE_DIRECTORY: join(dir, 'state'),
    NOTIFY_SOCKET: '',
  });
  await waitFor(() => /run \S+ · /.test(run.stderr()), 10_000, 'the start line');
  writeFileSync(config, 'inactivity = "soon"\n');
  run.child.kill('SIGHUP');
  await waitFor(() => /SIGHUP: config not reloaded/.test(run.stderr()), 5_000, 'the refusal');
  assert.match(run.stderr(), /SIGHUP: config not reloaded, the running one stays: .*job\.toml: inactivity = "soon"/);
  writeFileSync(config, 'inactivity = "1min"\nhung_timeout = "2min"\n');
  run.child.kill('SIGHUP');
  await waitFor(
    () => /SIGHUP: config not reloaded.*\n.*SIGHUP: config not reloaded/s.test(run.stderr()),
    5_000,
    'the second refusal',
  );
  assert.match(run.stderr(), /the running one stays: hung_timeout \(2min\) is not shorter than inactivity \(1min\)/);
  writeFileSync(config, 'inactivity = "1s"\npoll = "200ms"\nstop_grace = "1s"\n');
  run.child.kill('SIGHUP');
  assert.equal(
    await run.exited,
    75,
    `the last, good edit applies: a 1s inactivity catches the silent child\n${run.stderr()}`,
  );
  assert.match(run.stderr(), /SIGHUP: re-read .*job\.toml: applied inactivity 10min → 1s; the work goes on untouched/);
  assert.equal(
    run
      .stderr()
      .split('\n')
      .filter((line) => line.includes('SIGHUP')).length,
    3,
    'one line per SIGHUP',
  );
});

test('without a config file SIGHUP is ignored in one line', async (t) => {
  const dir = tempDir(t);
  const run = startRun(t, ['--poll', '200ms', '--stop-grace', '1s'], {
    ...process.env,
    STATE_DIRECTORY: join(dir, 'state'),
    NOTIFY_SOCKET: '',
    DEADMAN_CONFIG: '',
    XDG_CONFIG_HOME: dir,
  });
  await waitFor(() => /run \S+ · /.test(run.stderr()), 10_000, 'the start line');
  run.child.kill('SIGHUP');
  await waitFor(() => /SIGHUP/.test(run.stderr()), 5_000, 'the note');
  assert.match(
    run.stderr(),
    /SIGHUP: deadman run was started without a config file, so there is nothing to re-read; ignored/,
  );
  assert.equal(run.child.exitCode, null, 'still running');
  run.child.kill('SIGTERM');
  await run.exited;
  assert.match(run.stderr(), /SIGTERM: stopping/);
});

/** The PID whose command line (deadman's process title) is `title`, or null. */
function pidTitled(title: string): number | null {
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0+$/, '') === title) return Number(entry);
    } catch {
      // gone
    }
  }
  return null;
}

test(
  'in a terminal, SIGHUP is the terminal closing: it still stops the run',
  { skip: process.platform !== 'linux' && 'script(1) of util-linux' },
  async (t) => {
    const dir = tempDir(t);
    const config = join(dir, 'job.toml');
    writeFileSync(config, 'poll = "200ms"\nstop_grace = "1s"\n');
    const name = `tty-${process.pid}`;
    const inner = quoteCommandLine([
      process.execPath,
      deadmanBin,
      'run',
      '--config',
      config,
      '--name',
      name,
      '--',
      'sh',
      '-c',
      'echo started; exec sleep 600',
    ]);
    assert.ok(inner.ok);
    let output = '';
    const finished = runProgram('script', ['-qec', inner.text, '/dev/null'], {
      env: { ...process.env, STATE_DIRECTORY: join(dir, 'state'), NOTIFY_SOCKET: '' },
      onStdout: (text) => (output = text),
    });
    const pid = await waitFor(() => pidTitled(`deadman run ${name}`), 10_000, 'deadman in the terminal');
    await waitFor(() => output.includes('started'), 10_000, 'the work');
    t.after(() => {
      if (pidTitled(`deadman run ${name}`) !== null) process.kill(pid, 'SIGKILL');
    });
    process.kill(pid, 'SIGHUP');
    const result = await Promise.race([
      finished,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000).unref()),
    ]);
    assert.ok(result !== null, `the run did not stop on SIGHUP in a terminal:\n${output}`);
    assert.match(result.stdout, /SIGHUP: stopping/, result.stdout);
    assert.doesNotMatch(result.stdout, /re-read/);
  },
);
