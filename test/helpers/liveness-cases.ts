import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, runDeadman, tempDir } from './cli.ts';
import { query } from './db.ts';
import { fixturePath } from './fixtures.ts';

/**
 * The cases of "liveness you can trust on a real host", shared by the acceptance tests and
 * `bench/liveness.ts`: each one real deadman run of a real process tree, judged by whether it
 * stalled (OUTPUT_INACTIVITY, exit 75) or survived 3 × inactivity (stopped by --timeout, 124).
 */

export interface LivenessCase {
  name: string;
  expect: 'stall' | 'survive';
  /** Extra `deadman run` flags. */
  flags?: string[];
  /** The command, given the case's private directory. */
  command(dir: string): string[];
  /** A file (in that directory) the command touches when its start-up work is over. */
  idleFrom?: string;
}

export const INACTIVITY_MS = 2_000;
export const POLL_MS = 250;

const node = (script: string) => [process.execPath, '-e', script];

export const LIVENESS_CASES: LivenessCase[] = [
  {
    name: 'idle agent with an inotify watch on /etc',
    expect: 'stall',
    idleFrom: 'watching',
    command: (dir) => ['python3', fixturePath('inotify-idle.py'), join(dir, 'watching')],
  },
  {
    name: 'until test -f X; do sleep 1; done',
    expect: 'stall',
    idleFrom: 'started',
    command: (dir) => ['sh', '-c', `touch started; until test -f ${join(dir, 'never')}; do sleep 1; done`],
  },
  {
    name: 'a systemd-notify WATCHDOG=1 loop',
    expect: 'stall',
    idleFrom: 'started',
    command: () => ['sh', '-c', 'touch started; while :; do systemd-notify WATCHDOG=1 2>/dev/null; sleep 1; done'],
  },
  {
    name: 'codex adapter, non-JSON junk every second',
    expect: 'stall',
    idleFrom: 'started',
    flags: ['--adapter', 'codex'],
    command: () => ['sh', '-c', 'touch started; while :; do echo "not json"; echo oops >&2; sleep 1; done'],
  },
  { name: 'a silent CPU-bound job', expect: 'survive', command: () => node('for (;;);') },
  {
    name: 'a silent download throttled to 100 KB/s from a loopback server',
    expect: 'survive',
    command: (dir) =>
      node(`
      const http = require('http'); const fs = require('fs');
      const server = http.createServer((req, res) => { const t = setInterval(() => res.write(Buffer.alloc(10240)), 100); req.on('close', () => clearInterval(t)); });
      server.listen(0, '127.0.0.1', () => http.get({ host: '127.0.0.1', port: server.address().port }, (res) => res.pipe(fs.createWriteStream(${JSON.stringify(join(dir, 'download'))}))));`),
  },
  {
    name: 'a tar of a large tree to disk',
    expect: 'survive',
    command: (dir) => ['sh', '-c', `exec tar cf ${join(dir, 'out.tar')} /usr 2>/dev/null`],
  },
];

export interface CaseResult {
  stalled: boolean;
  /** Incident opened this long after the run started (or its idling began), beyond the inactivity limit (stalls only). */
  latencyBeyondMs: number | null;
  code: number | null;
  stderr: string;
}

/** One run of a case; survivors are stopped by --timeout after 3 × inactivity. */
/**
 * `timeoutMs`: the run's --timeout, 3 × inactivity + 0.5 s on an idle host; a test on a busy one
 * passes it scaled by how much slower the host is (a stall case's start-up alone may use it up).
 */
export async function runCase(
  c: LivenessCase,
  t?: { after(fn: () => void): void },
  timeoutMs = 3 * INACTIVITY_MS + 500,
): Promise<CaseResult> {
  const dir = tempDir(t);
  const database = join(dir, 'deadman.db');
  const env = { ...process.env, STATE_DIRECTORY: join(dir, 'state'), NOTIFY_SOCKET: '', DEADMAN_CONFIG: '' };
  const finished = await runDeadman(
    [
      'run',
      '--database',
      database,
      '--inactivity',
      `${INACTIVITY_MS}ms`,
      '--poll',
      `${POLL_MS}ms`,
      '--timeout',
      `${Math.round(timeoutMs)}ms`,
      '--stop-grace',
      '1s',
      ...(c.flags ?? []),
      '--',
      ...c.command(dir),
    ],
    { env, cwd: dir },
  );
  const [row] = query<{ opened_at: number; started_at: number }>(
    database,
    "SELECT i.opened_at, r.started_at FROM incidents i JOIN runs r ON r.id = i.run_id WHERE i.kind = 'OUTPUT_INACTIVITY'",
  );
  return {
    stalled: row !== undefined,
    latencyBeyondMs: row ? row.opened_at - Math.max(row.started_at, idleSince(dir, c.idleFrom)) - INACTIVITY_MS : null,
    code: finished.code,
    stderr: finished.stderr,
  };
}

function idleSince(dir: string, file: string | undefined): number {
  return file && existsSync(join(dir, file)) ? statSync(join(dir, file)).mtimeMs : 0;
}

/**
 * Busy-host noise for the duration of a test: another process tree exec'ing /bin/true every
 * 0.3 s (every exec opens /etc/ld.so.cache) and `busyCores` busy loops (one unless told).
 * Returns the stop function.
 */
export function startHostNoise({ busyCores = 1 } = {}): () => void {
  const children = [
    spawn('sh', ['-c', 'while :; do /bin/true; sleep 0.3; done'], { detached: true, stdio: 'ignore' }),
    ...Array.from({ length: busyCores }, () =>
      spawn(process.execPath, ['-e', 'for (;;);'], { detached: true, stdio: 'ignore' }),
    ),
  ];
  return () => {
    for (const child of children) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
}

export const fakeAgent = join(repoRoot, 'dist', 'lib', 'demo', 'fake-agent.js');

export const HUNG_TIMEOUT_MS = 2_000;

/**
 * One run of the fake Codex that starts its hung tool 1.5 s before printing item.started (as
 * Codex does): how long after that event the tool's item.completed came (it comes once the
 * tool is killed), or null when it never did within the run's --timeout.
 */
export async function hungToolKillDelay(
  t?: { after(fn: () => void): void },
  extraEnv: Record<string, string> = {},
): Promise<{ delayMs: number | null; stderr: string }> {
  const dir = tempDir(t);
  const env = {
    ...process.env,
    STATE_DIRECTORY: join(dir, 'state'),
    NOTIFY_SOCKET: '',
    DEADMAN_CONFIG: '',
    FAKE_AGENT_SCENARIO: 'hang-tool',
    FAKE_AGENT_TOOL_EVENT_DELAY_MS: '1500',
    ...extraEnv,
  };
  const child = spawn(
    process.execPath,
    [
      join(repoRoot, 'bin', 'deadman.js'),
      'run',
      '--database',
      join(dir, 'deadman.db'),
      '--adapter',
      'codex',
      '--auto-recover',
      '--hung-timeout',
      `${HUNG_TIMEOUT_MS}ms`,
      '--kill-grace',
      '1s',
      '--poll',
      `${POLL_MS}ms`,
      '--inactivity',
      '1min',
      '--timeout',
      '15s',
      '--',
      process.execPath,
      fakeAgent,
      'codex',
      'exec',
      '--json',
      'fix the tests',
    ],
    { env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let startedAt: number | null = null;
  let completedAt: number | null = null;
  let stderr = '';
  let pending = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    const lines = (pending + d).split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      if (line.includes('"item.started"')) startedAt ??= performance.now();
      if (line.includes('"item.completed"') && line.includes('command_execution')) completedAt ??= performance.now();
    }
  });
  await new Promise((resolve) => child.on('close', resolve));
  return { delayMs: startedAt !== null && completedAt !== null ? completedAt - startedAt : null, stderr };
}
