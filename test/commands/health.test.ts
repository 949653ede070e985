import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, runDeadman, tempDir, waitFor } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';

/**
 * `deadman health` as a liveness probe runs it: 0 while the run is healthy, 1 once it stalled
 * (the run writes so at once) or its deadman is gone, 0 again when a new run of the name is
 * healthy; 64 for a name no run ever had.
 */
test('deadman health goes 0 → 1 on a stall and back to 0 after recovery', async (t) => {
  const dir = tempDir(t);
  const env = { ...process.env, STATE_DIRECTORY: join(dir, 'state'), DEADMAN_CONFIG: '', NOTIFY_SOCKET: '' };
  const health = () => runDeadman(['health', '--name', 'probe'], { env });
  const start = (script: string) => {
    const child = spawn(
      process.execPath,
      [
        deadmanBin,
        'run',
        '--name',
        'probe',
        '--inactivity',
        '2s',
        '--poll',
        '250ms',
        '--stop-grace',
        '1s',
        '--',
        'sh',
        '-c',
        script,
      ],
      { env, stdio: 'ignore' },
    );
    t.after(() => child.kill('SIGKILL'));
    return new Promise<number | null>((resolve) => child.on('exit', resolve));
  };
  assert.equal((await health()).code, 64, 'no run yet: no such run');

  // Talks for 3 s, then goes silent: healthy first, then OUTPUT_INACTIVITY and exit 75.
  const stalled = start('for i in 1 2 3 4 5 6; do echo tick; sleep 0.5; done; exec sleep 60');
  await waitFor(async () => (await health()).code === 0, 5_000, 'healthy while it talks');
  assert.equal(await stalled, 75);
  const unhealthy = await waitFor(
    async () => {
      const r = await health();
      return r.code === 1 ? r : null;
    },
    15_000,
    'unhealthy after the stall',
  );
  assert.match(unhealthy.stdout, /^probe: unhealthy: (STALLED · |deadman \(pid \d+\) is gone)/);

  void start('while :; do echo tick; sleep 0.3; done');
  const healthy = await waitFor(
    async () => {
      const r = await health();
      return r.code === 0 ? r : null;
    },
    5_000,
    'healthy again',
  );
  assert.match(healthy.stdout, /^probe: healthy · ok/);
});

test('a missing name is a usage error; --quiet prints nothing', async (t) => {
  const env = { ...process.env, STATE_DIRECTORY: tempDir(t), DEADMAN_CONFIG: '' };
  assert.equal((await runDeadman(['health'], { env })).code, 64);
  const quiet = await runDeadman(['health', '--name', 'x', '--quiet'], { env });
  assert.deepEqual([quiet.code, quiet.stdout], [64, ''], 'no run named x: a distinct exit, not "unhealthy"');
});

test('with no health file left, a probe still settles a run whose deadman is gone (killed before its first refresh)', async (t) => {
  const stateDir = join(tempDir(t), 'state');
  const env = { ...process.env, DEADMAN_CONFIG: '', NOTIFY_SOCKET: '' };
  // The work ends itself once its deadman is gone (its parent changes).
  const work =
    'const parent = process.ppid; setInterval(() => { if (process.ppid !== parent) process.exit(0); console.log("tick"); }, 200)';
  const child = spawn(
    process.execPath,
    [
      deadmanBin,
      'run',
      '--name',
      'early',
      '--state-dir',
      stateDir,
      '--poll',
      '250ms',
      '--',
      process.execPath,
      '-e',
      work,
    ],
    { env, stdio: 'ignore' },
  );
  t.after(() => child.kill('SIGKILL'));
  const healthFile = join(stateDir, 'health', 'early.json');
  await waitFor(() => existsSync(healthFile), 10_000, 'the first health refresh');
  child.kill('SIGKILL');
  await new Promise((resolve) => child.on('exit', resolve));
  rmSync(healthFile); // as if it died before writing it
  const probe = await runDeadman(['health', '--name', 'early', '--state-dir', stateDir, '--quiet'], { env });
  assert.equal(probe.code, 64, 'no health file: no such run to judge');
  assert.deepEqual(
    query<{ outcome: string }>(join(stateDir, 'deadman.db'), 'SELECT outcome FROM runs WHERE ended_at IS NOT NULL').map(
      (r) => r.outcome,
    ),
    ['lost'],
  );
});
