import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, runDeadman, tempDir, waitFor } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { isRunning } from '../helpers/process-tree.ts';
import { measureHostDelay } from '../helpers/host-delay.ts';

function setup(t: { after(fn: () => void): void }) {
  const dir = tempDir(t);
  const database = join(dir, 'deadman.db');
  const env = { ...process.env, STATE_DIRECTORY: join(dir, 'state'), NOTIFY_SOCKET: '', DEADMAN_CONFIG: '' };
  return {
    dir,
    database,
    env,
    run: (args: string[], extra: object = {}) =>
      runDeadman(['run', '--database', database, ...args], { env, cwd: dir, ...extra }),
  };
}

test('exit codes: passed through, 128+N for a signal, 127/126 when the command cannot start', async (t) => {
  const { dir, run } = setup(t);
  assert.equal((await run(['--', 'sh', '-c', 'exit 3'])).code, 3);
  assert.equal((await run(['--', 'sh', '-c', 'kill -9 $$'])).code, 137);
  const missing = await run(['--', 'no-such-binary-xyz']);
  assert.equal(missing.code, 127);
  assert.match(missing.stderr, /no-such-binary-xyz: command not found/);
  assert.doesNotMatch(missing.stderr, /\n\s+at /);
  const script = join(dir, 'not-executable.sh');
  writeFileSync(script, '#!/bin/sh\necho hi\n');
  chmodSync(script, 0o644);
  assert.equal((await run(['--', script])).code, 126);
});

test('usage errors are one line and exit 64', async (t) => {
  const { run } = setup(t);
  for (const args of [['--frobnicate', '--', 'true'], [], ['true']]) {
    const result = await run(args);
    assert.equal(result.code, 64, `${args.join(' ')}: ${result.stderr}`);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
  }
  const badDuration = await run(['--inactivity', '7 fortnights', '--', 'true']);
  assert.equal(badDuration.code, 78);
  assert.match(badDuration.stderr, /--inactivity.*unknown unit "fortnights"/);
});

test('the child gets /dev/null on stdin and no systemd variables', async (t) => {
  const { run, env } = setup(t);
  const result = await run(['--', 'sh', '-c', 'readlink /proc/self/fd/0; env'], {
    env: { ...env, WATCHDOG_USEC: '1000000', WATCHDOG_PID: '1', LISTEN_FDS: '1', LISTEN_PID: '1', KEEP_ME: 'yes' },
  });
  assert.equal(result.code, 0, result.stderr);
  const lines = result.stdout.split('\n');
  assert.equal(lines[0], '/dev/null');
  assert.ok(lines.includes('KEEP_ME=yes'));
  assert.ok(
    !lines.some((l) => /^(NOTIFY_SOCKET|WATCHDOG_USEC|WATCHDOG_PID|LISTEN_FDS|LISTEN_PID)=/.test(l)),
    result.stdout,
  );
});

test('output passes through live, in order, unchanged', async (t) => {
  const { database, env, dir } = setup(t);
  // The child ends only once the test saw its first output: live, however slow the host.
  const gate = join(dir, 'gate');
  const child = spawn(
    process.execPath,
    [
      deadmanBin,
      'run',
      '--database',
      database,
      '--',
      'sh',
      '-c',
      `echo first; printf "no newline"; until [ -e ${gate} ]; do sleep 0.05; done; echo; echo second >&2`,
    ],
    { env, cwd: dir },
  );
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  await waitFor(() => stdout.includes('first\nno newline'), 5000, 'the first line before the child exits');
  assert.equal(child.exitCode, null);
  writeFileSync(gate, '');
  const code = await new Promise((r) => child.on('close', r));
  assert.equal(code, 0);
  assert.equal(stdout, 'first\nno newline\n');
});

test('a silent, idle child is a stall: OUTPUT_INACTIVITY recorded, tree stopped, exit 75', async (t) => {
  const { run, database } = setup(t);
  const host = measureHostDelay();
  const started = performance.now();
  const result = await run([
    '--inactivity',
    '2s',
    '--poll',
    '200ms',
    '--stop-grace',
    '1s',
    '--',
    'sh',
    '-c',
    'echo hello; sleep 60',
  ]);
  const elapsed = performance.now() - started;
  assert.equal(result.code, 75, result.stderr);
  assert.ok(
    elapsed < 2000 + host.scaled(200 + 3000),
    `took ${elapsed.toFixed(0)} ms (host ${host.stretch().toFixed(1)}× slower than idle)`,
  );
  const [incident] = query<{ kind: string; state: string; message: string }>(
    database,
    'SELECT kind, state, message FROM incidents',
  );
  assert.equal(incident?.kind, 'OUTPUT_INACTIVITY');
  assert.equal(incident?.state, 'ESCALATED');
  assert.match(incident!.message, /^no output for 2s$/);
  const [runRow] = query<{ outcome: string; exit_code: number }>(database, 'SELECT outcome, exit_code FROM runs');
  assert.deepEqual({ ...runRow }, { outcome: 'stalled', exit_code: 75 });
});

test('a silent child that burns CPU or writes files (above the I/O floor) is not a stall within 3x the limit', async (t) => {
  const { run, dir } = setup(t);
  const busy = await run([
    '--inactivity',
    '1s',
    '--poll',
    '200ms',
    '--',
    process.execPath,
    '-e',
    'const end = Date.now() + 3500; while (Date.now() < end);',
  ]);
  assert.equal(busy.code, 0, busy.stderr);
  const writer = await run([
    '--inactivity',
    '1s',
    '--poll',
    '200ms',
    '--',
    process.execPath,
    '-e',
    `const fs = require('fs'); let n = 0; const t = setInterval(() => { fs.appendFileSync(${JSON.stringify(join(dir, 'out.txt'))}, 'x'.repeat(65536)); if (++n === 35) clearInterval(t); }, 100);`,
  ]);
  assert.equal(writer.code, 0, writer.stderr);
});

test('--timeout stops the run with exit 124 and records it', async (t) => {
  const { run, database } = setup(t);
  const result = await run(['--timeout', '1s', '--poll', '200ms', '--', 'sleep', '30']);
  assert.equal(result.code, 124, result.stderr);
  assert.equal(query<{ outcome: string }>(database, 'SELECT outcome FROM runs')[0]?.outcome, 'timeout');
  assert.equal(query<{ kind: string }>(database, 'SELECT kind FROM incidents')[0]?.kind, 'TIMEOUT');
});

test('SIGTERM stops the whole tree, escaped setsid grandchildren included, within the grace', async (t) => {
  const { database, env, dir } = setup(t);
  const child = spawn(
    process.execPath,
    [
      deadmanBin,
      'run',
      '--database',
      database,
      '--stop-grace',
      '2s',
      '--poll',
      '200ms',
      '--',
      'sh',
      '-c',
      'trap "" TERM; setsid sh -c "trap \\"\\" TERM; sleep 600" & echo $!; sleep 600',
    ],
    { env, cwd: dir },
  );
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  const grandchild = Number(await waitFor(() => stdout.match(/^(\d+)\n/)?.[1], 3000, 'the grandchild pid'));
  // Once a poll has seen the grandchild it stays owned after it escapes with setsid and its parent dies.
  const observed = () =>
    query<{ processes: Array<{ pid: number }> }>(database, 'SELECT processes FROM observations').some((o) =>
      o.processes.some((p) => p.pid === grandchild),
    );
  await waitFor(observed, 3000, 'deadman to observe the grandchild');
  assert.ok(isRunning(grandchild));
  const host = measureHostDelay();
  const started = performance.now();
  child.kill('SIGTERM');
  const [code, signal] = await new Promise<[number | null, string | null]>((r) =>
    child.on('exit', (c, s) => r([c, s])),
  );
  const elapsed = performance.now() - started;
  assert.equal(signal, 'SIGTERM', `deadman re-raises the stop signal (code ${code})`);
  assert.ok(
    elapsed < 2000 + host.scaled(1000),
    `stop took ${elapsed.toFixed(0)} ms (host ${host.stretch().toFixed(1)}× slower than idle)`,
  );
  await waitFor(() => !isRunning(grandchild), 1000, 'the setsid grandchild to be gone');
  assert.equal(query<{ outcome: string }>(database, 'SELECT outcome FROM runs')[0]?.outcome, 'stopped');
});

test('a second signal during the grace skips straight to SIGKILL', async (t) => {
  const { database, env, dir } = setup(t);
  const child = spawn(
    process.execPath,
    [
      deadmanBin,
      'run',
      '--database',
      database,
      '--stop-grace',
      '30s',
      '--',
      'sh',
      '-c',
      'trap "" TERM INT; echo ready; sleep 600',
    ],
    { env, cwd: dir },
  );
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  await waitFor(() => stdout.includes('ready'), 3000, 'the child');
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const host = measureHostDelay();
  const started = performance.now();
  child.kill('SIGTERM');
  await waitFor(() => stderr.includes('SIGTERM: stopping'), 3000, 'deadman to take the first signal');
  child.kill('SIGINT');
  await new Promise((r) => child.on('exit', r));
  assert.ok(performance.now() - started < host.scaled(3000), 'second signal should not wait for the 30s grace');
});

test("the command and its working directory may come from the config (the template unit's way)", async (t) => {
  const { dir, run } = setup(t);
  const config = join(dir, 'job.toml');
  writeFileSync(config, `command = ["sh", "-c", "pwd; echo \\"$0 a%b $HOME\\""]\ncwd = "/tmp"\n`);
  const result = await run(['--config', config]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^\/tmp\nsh a%b \//);
  const overridden = await run(['--config', config, '--', 'sh', '-c', 'echo flag wins']);
  assert.equal(overridden.stdout, 'flag wins\n');
});
