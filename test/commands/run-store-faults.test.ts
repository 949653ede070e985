import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';

/**
 * Recording is best-effort, supervision is not: whatever is wrong with the database — cut
 * short, on a read-only or a full file system — the work runs, its exit code comes back, and
 * deadman says once what it could not record. Real files and real mounts (the tests run as root).
 */

const CHILD = ['sh', '-c', 'echo working; exit 7'];

function setup(t: { after(fn: () => void): void }, stateDir?: string) {
  const dir = tempDir(t);
  const state = stateDir ?? join(dir, 'state');
  const config = join(dir, 'deadman.toml');
  writeFileSync(config, `state_dir = ${JSON.stringify(state)}\ninactivity = "1min"\n`);
  const env = { ...process.env, DEADMAN_CONFIG: '', NOTIFY_SOCKET: '', WATCHDOG_USEC: '', INVOCATION_ID: '' };
  const deadman = (args: string[]) =>
    runDeadman([...args.slice(0, 1), '--config', config, ...args.slice(1)], { cwd: dir, env });
  return { dir, state, database: join(state, 'deadman.db'), deadman };
}

/** A tmpfs of its own, unmounted when the test ends. */
function tmpfs(t: { after(fn: () => void): void }, options: string): string {
  const mountPoint = mkdtempSync(join(tmpdir(), 'deadman-mnt-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', mountPoint]);
  t.after(() => {
    execFileSync('umount', ['-l', mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });
  return mountPoint;
}

const lines = (stderr: string, pattern: RegExp) => stderr.split('\n').filter((line) => pattern.test(line));

test('a truncated database is moved aside with one line, and the run is recorded in a fresh one', async (t) => {
  const s = setup(t);
  assert.equal((await s.deadman(['run', '--', ...CHILD])).code, 7);
  truncateSync(s.database, Math.floor(statSync(s.database).size / 2));
  const result = await s.deadman(['run', '--', ...CHILD]);
  assert.equal(result.code, 7, result.stderr);
  assert.equal(result.stdout, 'working\n');
  assert.equal(
    lines(result.stderr, /moved it aside to .*deadman\.db\.corrupt-.* and started a fresh one/).length,
    1,
    result.stderr,
  );
  assert.ok(readdirSync(s.state).some((f) => f.startsWith('deadman.db.corrupt-')));
  assert.deepEqual(query<{ exit_code: number }>(s.database, 'SELECT exit_code FROM runs'), [{ exit_code: 7 }]);
  assert.equal(
    (await s.deadman(['status'])).code,
    1,
    'status reads the fresh database: its run failed with 7, which needs attention',
  );
});

test('on a read-only file system the work runs and its code is kept; status and report still read it', async (t) => {
  const mountPoint = tmpfs(t, 'size=4m,mode=0700');
  const s = setup(t, join(mountPoint, 'state'));
  assert.equal((await s.deadman(['run', '--', 'sh', '-c', 'exit 0'])).code, 0);
  execFileSync('mount', ['-o', 'remount,ro', mountPoint]);
  const before = readFileSync(s.database);
  const result = await s.deadman(['run', '--', ...CHILD]);
  assert.equal(result.code, 7, result.stderr);
  assert.equal(result.stdout, 'working\n');
  // One cause, one line: the records, the marker and the health file all go with the directory.
  assert.equal(
    lines(
      result.stderr,
      /^deadman: state directory .* cannot be written \(read-only file system\): not recording, no revive marker, health reports unhealthy; the work goes on$/,
    ).length,
    1,
    result.stderr,
  );
  assert.equal(result.stderr.trim().split('\n').length, 3, result.stderr);
  assert.doesNotMatch(result.stderr, /internal error|\n\s+at /);
  const status = await s.deadman(['status', '--json']);
  assert.equal(status.code, 0, `the run recorded before the remount completed: ${status.stderr}`);
  assert.equal(JSON.parse(status.stdout).length, 1);
  assert.equal((await s.deadman(['incidents'])).code, 0);
  assert.equal((await s.deadman(['report', 'latest'])).code, 0);
  assert.deepEqual(readFileSync(s.database), before);
});

test('on a full file system the work runs and its code is kept, with one line naming the full file system', async (t) => {
  const mountPoint = tmpfs(t, 'size=256k,mode=0700');
  const s = setup(t, join(mountPoint, 'state'));
  mkdirSync(s.state);
  fillUp(mountPoint);
  const result = await s.deadman(['run', '--', ...CHILD]);
  assert.equal(result.code, 7, result.stderr);
  assert.equal(result.stdout, 'working\n');
  assert.equal(
    lines(
      result.stderr,
      /^deadman: state directory .* cannot be written \(file system full: \d+ kB free\): not recording, /,
    ).length,
    1,
    result.stderr,
  );
  assert.ok(result.stderr.trim().split('\n').length <= 3, result.stderr);
  assert.doesNotMatch(result.stderr, /internal error|\n\s+at /);
});

test('a file system that fills up under a database already there: at most 3 lines, naming a full file system, never "cannot rollback"', async (t) => {
  const mountPoint = tmpfs(t, 'size=512k,mode=0700');
  const s = setup(t, join(mountPoint, 'state'));
  assert.equal((await s.deadman(['run', '--', 'sh', '-c', 'exit 0'])).code, 0);
  fillUp(mountPoint);
  const result = await s.deadman(['run', '--', ...CHILD]);
  assert.equal(result.code, 7, result.stderr);
  assert.equal(result.stdout, 'working\n');
  // The cause, the start line and the end line: the records, the marker and the health file all go with the full disk.
  assert.ok(result.stderr.trim().split('\n').length <= 3, result.stderr);
  assert.equal(
    lines(
      result.stderr,
      /^deadman: state directory .* cannot be written \(file system full: \d+ kB free\): not recording, no revive marker, health reports unhealthy; the work goes on$/,
    ).length,
    1,
    result.stderr,
  );
  assert.doesNotMatch(result.stderr, /cannot rollback|internal error|\n\s+at /);
});

test('a state directory that cannot be created does not stop the work', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'file'), 'a file where a directory should be\n');
  const s = setup(t, join(dir, 'file', 'state'));
  const result = await s.deadman(['run', '--', ...CHILD]);
  assert.equal(result.code, 7, result.stderr);
  assert.equal(
    lines(
      result.stderr,
      /^deadman: state directory .*file\/state cannot be created \(ENOTDIR: .*file is not a directory\): not recording, /,
    ).length,
    1,
    result.stderr,
  );
  assert.equal(result.stderr.trim().split('\n').length, 3, result.stderr);
});

test('readers of a damaged database: status shows the markers with one line, report and incidents exit 74 in one line', async (t) => {
  const s = setup(t);
  assert.equal((await s.deadman(['run', '--', ...CHILD])).code, 7);
  const bytes = readFileSync(s.database);
  bytes.fill(0x5a, 100);
  writeFileSync(s.database, bytes);
  const status = await s.deadman(['status', '--json']);
  assert.equal(status.code, 1, `the run failed with 7, which needs attention: ${status.stderr}`);
  assert.equal(JSON.parse(status.stdout).length, 1, 'the marker still shows the run');
  assert.equal(lines(status.stderr, /database is damaged .*; showing the markers only$/).length, 1, status.stderr);
  for (const args of [['report', 'latest'], ['incidents']]) {
    const result = await s.deadman(args);
    assert.equal(result.code, 74, result.stderr);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    assert.match(result.stderr, /damaged .*the next deadman run moves it aside/);
  }
});

/** Writes until the file system is full: dd stops with ENOSPC, which is the point. */
function fillUp(mountPoint: string): void {
  try {
    execFileSync('dd', ['if=/dev/zero', `of=${join(mountPoint, 'filler')}`, 'bs=4k'], { stdio: 'ignore' });
  } catch {
    // ENOSPC: full.
  }
}
