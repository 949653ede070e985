import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, runDeadman, tempDir, waitFor } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { measureHostDelay } from '../helpers/host-delay.ts';
import { fixturePath } from '../helpers/fixtures.ts';
import { isRunning, nodeFixture } from '../helpers/process-tree.ts';

const STOP_GRACE_MS = 1_000;

function setup(t: { after(fn: () => void): void }) {
  const dir = tempDir(t);
  const database = join(dir, 'deadman.db');
  const env = { ...process.env, STATE_DIRECTORY: join(dir, 'state'), NOTIFY_SOCKET: '', DEADMAN_CONFIG: '' };
  return { dir, database, env };
}

/** Starts `deadman run` with stdout collected; resolves the first line and the exit. */
function start(args: string[], options: { env: NodeJS.ProcessEnv; cwd: string }) {
  const child = spawn(process.execPath, [deadmanBin, 'run', ...args], {
    ...options,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const firstLine = () => waitFor(() => stdout.match(/^(.*)\n/)?.[1], 10_000, 'the first line');
  return { child, exited, firstLine, stderr: () => stderr };
}

test('outside systemd, a setsid child of an exiting root is stopped within stop_grace + 1 s, nothing left', async (t) => {
  const { dir, database, env } = setup(t);
  const run = start(
    [
      '--database',
      database,
      '--stop-grace',
      `${STOP_GRACE_MS}ms`,
      '--poll',
      '250ms',
      '--',
      'sh',
      '-c',
      'setsid sleep 100 & echo $!',
    ],
    { env, cwd: dir },
  );
  const sleeper = Number(await run.firstLine());
  const host = measureHostDelay();
  const rootExitedAt = performance.now();
  const code = await run.exited;
  const took = performance.now() - rootExitedAt;
  assert.equal(code, 0, run.stderr());
  assert.ok(
    took < STOP_GRACE_MS + host.scaled(1000),
    `deadman returned ${took.toFixed(0)} ms after the root's exit (host ${host.stretch().toFixed(1)}× slower than idle)`,
  );
  assert.equal(isRunning(sleeper), false, 'the setsid sleep is gone');
});

test('on stop, a setsid tool receives SIGTERM before any SIGKILL', async (t) => {
  const { dir, database, env } = setup(t);
  const record = join(dir, 'signals');
  const run = start(
    [
      '--database',
      database,
      '--stop-grace',
      `${STOP_GRACE_MS}ms`,
      '--poll',
      '250ms',
      '--',
      'sh',
      '-c',
      `setsid ${process.execPath} ${nodeFixture('records-sigterm')} ${record} & wait`,
    ],
    { env, cwd: dir },
  );
  const tool = Number(await run.firstLine());
  run.child.kill('SIGTERM');
  await run.exited;
  assert.equal(readFileSync(record, 'utf8'), 'SIGTERM\n', 'the tool heard SIGTERM (then, ignoring it, SIGKILL)');
  assert.equal(isRunning(tool), false);
});

/** HUNG_PROCESS incidents of a run stopped by --timeout after 2 × hung_timeout + 1 s. */
async function hungIncidents(
  t: { after(fn: () => void): void },
  flags: string[],
  command: string[],
  hungTimeoutMs = 1500,
): Promise<string[]> {
  const { dir, database, env } = setup(t);
  const finished = await runDeadman(
    [
      'run',
      '--database',
      database,
      '--auto-recover',
      '--hung-timeout',
      `${hungTimeoutMs}ms`,
      '--poll',
      '250ms',
      '--inactivity',
      '1min',
      '--timeout',
      `${2 * hungTimeoutMs + 1000}ms`,
      '--stop-grace',
      '1s',
      ...flags,
      '--',
      ...command,
    ],
    { env, cwd: dir },
  );
  assert.ok(finished.code === 124 || finished.code === 0, finished.stderr);
  return query<{ kind: string }>(database, "SELECT kind FROM incidents WHERE kind = 'HUNG_PROCESS'").map((r) => r.kind);
}

// Idle from its bind, it would be hung at bind + 3 s had the "not listening" answer of the
// first poll been kept (it was, for 60 s).
test('a server that binds, waits 1 s, then listens is never killed as hung', async (t) => {
  assert.deepEqual(
    await hungIncidents(t, [], ['sh', '-c', `setsid python3 ${fixturePath('bind-then-listen.py')} & wait`], 3000),
    [],
  );
});

test('a process alive when the output matched ready_pattern is persistent, not hung', async (t) => {
  const server = ['sh', '-c', 'setsid sh -c "echo ready; exec sleep 600" & wait'];
  const [withPattern, without] = await Promise.all([
    hungIncidents(t, ['--ready-pattern', '^ready$'], server),
    hungIncidents(t, [], server),
  ]);
  assert.deepEqual(withPattern, []);
  assert.deepEqual(without, ['HUNG_PROCESS'], 'the same idle process without the pattern is hung (the test can fail)');
});
