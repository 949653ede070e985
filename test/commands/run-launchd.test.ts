import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, runDeadman, tempDir, waitFor } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { fakeAgent, killAgentLeftovers } from '../helpers/fake-agent.ts';

/**
 * `deadman run` as a generated plist starts it (DEADMAN_LAUNCHD_LABEL set, no NOTIFY_SOCKET):
 * a usage limit past max_wait ends with 0 — the plist's KeepAlive restarts on anything else —
 * after one line naming the 69 it stands for; a usage limit within reach is waited for and
 * resumed as anywhere else; a SIGINT is the job's stop, not a person's Ctrl-C.
 */

const claude = ['claude', '-p', 'the task', '--output-format', 'stream-json', '--verbose'];

function launchdRun(dir: string, maxWait: string, resetS: string, ...options: string[]) {
  const config = join(dir, 'deadman.toml');
  writeFileSync(config, `[usage_limit]\nmax_wait = "${maxWait}"\njitter = "0s"\n`);
  return runDeadman(
    [
      'run',
      '--config',
      config,
      '--database',
      join(dir, 'deadman.db'),
      '--adapter',
      'claude',
      '--poll',
      '200ms',
      '--on-stall',
      'exit',
      ...options,
      '--',
      process.execPath,
      fakeAgent,
      ...claude,
    ],
    {
      env: {
        ...process.env,
        STATE_DIRECTORY: dir,
        NOTIFY_SOCKET: '',
        DEADMAN_LAUNCHD_LABEL: 'deadman.review',
        FAKE_AGENT_SCENARIO: 'usage-limit',
        FAKE_AGENT_LIMIT_RESET_S: resetS,
      },
      cwd: dir,
    },
  );
}

test('under launchd a reset beyond usage_limit.max_wait ends the job with 0, saying it stands for 69 (do not restart)', async (t) => {
  const dir = tempDir(t);
  const result = await launchdRun(dir, '10s', '7200');
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    /USAGE_LIMIT: not waiting, the limit resets at .* beyond usage_limit\.max_wait \(10s\) from now \(exit 69: do not restart/,
  );
  assert.match(
    result.stderr,
    /exit 69 means do not restart: launchd job deadman\.review ends with 0, since its KeepAlive \(SuccessfulExit=false\) restarts on any other code/,
  );
  assert.deepEqual(
    query<{ outcome: string }>(join(dir, 'deadman.db'), 'SELECT outcome FROM runs').map((r) => r.outcome),
    ['usage-limit'],
  );
});

test('under launchd a reset 2 s ahead is waited for with no notify socket, then the session resumes and completes', async (t) => {
  const dir = tempDir(t);
  const result = await launchdRun(dir, '1min', '2');
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /waiting for usage limit reset at/);
  assert.doesNotMatch(result.stderr, /launchd job/, 'a real 0 needs no note');
  assert.deepEqual(
    query<{ outcome: string }>(join(dir, 'deadman.db'), 'SELECT outcome FROM runs ORDER BY id').map((r) => r.outcome),
    ['usage-limit', 'completed'],
  );
});

test('the wait does not count against --timeout: a 4 s wait under a 3 s timeout resumes and completes (exit 0, not 124)', async (t) => {
  const dir = tempDir(t);
  const result = await launchdRun(dir, '1min', '4', '--timeout', '3s');
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(
    query<{ outcome: string }>(join(dir, 'deadman.db'), 'SELECT outcome FROM runs ORDER BY id').map((r) => r.outcome),
    ['usage-limit', 'completed'],
  );
});

test('under launchd a SIGINT (launchctl kill INT) leaves the session interrupted, to be revived, as under a systemd unit', async (t) => {
  const dir = tempDir(t);
  const argvLog = join(dir, 'argv.jsonl');
  const markerFile = join(dir, 'markers', 'job.json');
  const run = spawn(
    process.execPath,
    [
      deadmanBin,
      'run',
      '--name',
      'job',
      '--adapter',
      'claude',
      '--poll',
      '200ms',
      '--',
      process.execPath,
      fakeAgent,
      ...claude,
    ],
    {
      env: {
        ...process.env,
        STATE_DIRECTORY: dir,
        NOTIFY_SOCKET: '',
        DEADMAN_LAUNCHD_LABEL: 'deadman.job',
        FAKE_AGENT_SCENARIO: 'silent',
        FAKE_AGENT_ARGV_LOG: argvLog,
      },
      cwd: dir,
      stdio: 'ignore',
    },
  );
  t.after(() => killAgentLeftovers(argvLog));
  const marker = () => JSON.parse(readFileSync(markerFile, 'utf8')) as { state: string; sessionId: string | null };
  await waitFor(() => existsSync(markerFile) && marker().sessionId, 5_000, 'the session id in the marker');
  process.kill(run.pid!, 'SIGINT');
  await new Promise((resolve) => run.on('exit', resolve));
  assert.equal(marker().state, 'interrupted');
});
