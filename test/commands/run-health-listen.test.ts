import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { deadmanBin, runDeadman, tempDir, waitFor } from '../helpers/cli.ts';

/**
 * `deadman run --health-listen`: real HTTP requests to a real run, while it is healthy (200,
 * and `deadman health` agrees), once it has stalled (503, while it stops a tree that ignores
 * SIGTERM), and after it ended (nothing listens). Addresses other hosts could reach are refused
 * unless --health-public says so.
 */

function get(port: number, method = 'GET'): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/healthz', method, agent: false }, (response) => {
      let body = '';
      response
        .setEncoding('utf8')
        .on('data', (d: string) => (body += d))
        .on('end', () => resolve({ status: response.statusCode!, body }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end();
  });
}

test(
  '200 while the run is healthy (as deadman health says), 503 once it stalled, nothing after it ended',
  { timeout: 180_000 },
  async (t) => {
    const state = tempDir(t);
    const env = { ...process.env, STATE_DIRECTORY: state, NOTIFY_SOCKET: '', JOURNAL_STREAM: '' };
    // The work prints until the test has seen it healthy (however long a busy host takes to start
    // `deadman health`), then falls silent. The tree ignores SIGTERM: after the stall deadman waits
    // out --stop-grace, still answering probes.
    const work = 'trap "" TERM; while [ ! -e quiet ]; do echo working; sleep 0.5; done; exec sleep 120';
    const child = spawn(
      process.execPath,
      [
        deadmanBin,
        'run',
        '--name',
        'probed',
        '--health-listen',
        '127.0.0.1:0',
        '--inactivity',
        '4s',
        '--poll',
        '200ms',
        '--stop-grace',
        '60s',
        '--',
        'sh',
        '-c',
        work,
      ],
      { env, cwd: state, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    t.after(() => child.kill('SIGKILL'));
    const port = Number((await waitFor(() => /health on port (\d+)/.exec(stderr), 20_000, 'the banner'))[1]);

    const healthy = await waitFor(
      async () => {
        const r = await get(port);
        return 'status' in r && r.status === 200 ? r : null;
      },
      20_000,
      'a 200',
    );
    assert.match(healthy.body, /^probed: healthy · /);
    const cli = await runDeadman(['health', '--name', 'probed'], { env, cwd: state });
    assert.equal(cli.code, 0, cli.stdout + cli.stderr);
    assert.match(cli.stdout, /^probed: healthy · /);
    const head = await get(port, 'HEAD');
    assert.deepEqual(head, { status: 200, body: '' });
    writeFileSync(join(state, 'quiet'), '');

    const stalled = await waitFor(
      async () => {
        const r = await get(port);
        return 'status' in r && r.status === 503 ? r : null;
      },
      60_000,
      'a 503 after the stall',
    );
    assert.match(stalled.body, /^probed: unhealthy: /);
    assert.match(stderr, /OUTPUT_INACTIVITY/);
    const cliStalled = await runDeadman(['health', '--name', 'probed'], { env, cwd: state });
    assert.equal(cliStalled.code, 1, 'deadman health says the same');
    const post = await get(port, 'POST');
    assert.ok('status' in post && post.status === 405);

    child.kill('SIGKILL');
    await exited;
    const gone = await get(port);
    assert.ok('error' in gone && gone.error === 'ECONNREFUSED', JSON.stringify(gone));
  },
);

test('an address other hosts can reach needs --health-public; a bad one or one in use is refused before anything runs (64)', async (t) => {
  const state = tempDir(t);
  const env = { ...process.env, STATE_DIRECTORY: state, NOTIFY_SOCKET: '' };
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  t.after(() => taken.close());
  const takenPort = (taken.address() as AddressInfo).port;
  const run = (...args: string[]) =>
    runDeadman(['run', '--name', 'refused', ...args, '--', 'sh', '-c', 'echo ran'], { env, cwd: state });
  for (const [args, message] of [
    [['--health-listen', '0.0.0.0:0'], /--health-listen 0.0.0.0:0 is not a loopback address: .* add --health-public/],
    [['--health-listen', 'localhost'], /--health-listen "localhost": give HOST:PORT/],
    [
      ['--health-listen', `127.0.0.1:${takenPort}`],
      new RegExp(`--health-listen 127.0.0.1:${takenPort}: cannot listen \\(EADDRINUSE\\)`),
    ],
    [['--health-public'], /--health-public opens --health-listen to other hosts: give --health-listen too/],
  ] as const) {
    const result = await run(...args);
    assert.equal(result.code, 64, result.stderr);
    assert.match(result.stderr, message);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    assert.equal(result.stdout, '', 'the program never ran');
  }
  const opened = await run('--health-listen', '0.0.0.0:0', '--health-public', '--quiet');
  assert.equal(opened.code, 0, opened.stderr);
  assert.equal(opened.stdout, 'ran\n');
});
