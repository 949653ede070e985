import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { deadmanBin, runDeadman, tempDir, waitFor } from '../helpers/cli.ts';
import { measureHostDelay } from '../helpers/host-delay.ts';

/**
 * The database under faults, with real files and processes: a looser file tightened, an empty
 * file read as "nothing recorded" by every reader, a state directory deleted mid-run, and a
 * lock held by another writer, which must not delay the work's output.
 */

const env = { ...process.env, DEADMAN_CONFIG: '', NOTIFY_SOCKET: '', WATCHDOG_USEC: '', JOURNAL_STREAM: '' };
const runs = (database: string) => {
  const db = new DatabaseSync(database, { readOnly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM runs').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

test('a database file left 0644 is made 0600 before anything is recorded in it, said in one line', async (t) => {
  const dir = tempDir(t);
  const database = join(dir, 'deadman.db');
  writeFileSync(database, '', { mode: 0o644 });
  const run = await runDeadman(['run', '--state-dir', dir, '--database', database, '--', 'true'], { env });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(statSync(database).mode & 0o777, 0o600);
  assert.equal(
    run.stderr.split('\n').filter((line) => line.includes('readable by others (mode 0644): made it 0600')).length,
    1,
    run.stderr,
  );
  assert.equal(runs(database), 1);
});

test('a run SIGKILLed the moment its database appears leaves it 0600 (20 kills)', async (t) => {
  // Before, SQLite created the file 0644 and deadman chmodded it after: about 1 kill in 5 here left it so.
  const loose: string[] = [];
  for (let i = 0; i < 20; i++) {
    const dir = tempDir(t);
    const database = join(dir, 'deadman.db');
    const child = spawn(process.execPath, [deadmanBin, 'run', '--state-dir', dir, '--', 'true'], {
      env,
      stdio: 'ignore',
    });
    const watch = setInterval(() => existsSync(database) && child.kill('SIGKILL'), 0);
    await new Promise((resolve) => child.on('close', resolve));
    clearInterval(watch);
    if (existsSync(database) && (statSync(database).mode & 0o077) !== 0)
      loose.push(`kill ${i}: ${(statSync(database).mode & 0o777).toString(8)}`);
  }
  assert.deepEqual(loose, []);
});

test('a 0-byte database (a run killed before its first commit) is "nothing recorded" to every reader, not damaged', async (t) => {
  const dir = tempDir(t);
  const database = join(dir, 'deadman.db');
  writeFileSync(database, '', { mode: 0o600 });
  for (const command of [['status'], ['incidents'], ['report', 'latest'], ['metrics']]) {
    const read = await runDeadman([...command, '--state-dir', dir, '--database', database], { env });
    assert.equal(read.code, 0, `${command.join(' ')}: ${read.stderr}`);
    assert.doesNotMatch(read.stderr, /damaged|cannot be used|internal error/, command.join(' '));
  }
  assert.equal(statSync(database).size, 0, 'a reader writes nothing');
});

test('a state directory deleted mid-run: noticed within a poll, said once, recording goes on in a re-created one', async (t) => {
  const base = tempDir(t);
  const dir = join(base, 'state');
  const database = join(dir, 'deadman.db');
  // The work ends once the test has seen the deletion noticed: a fixed sleep could end first on a busy host.
  const gate = join(base, 'gate');
  const child = spawn(
    process.execPath,
    [
      deadmanBin,
      'run',
      '--state-dir',
      dir,
      '--poll',
      '200ms',
      '--',
      'sh',
      '-c',
      // At most 60 s, so a failed test leaves nothing behind.
      'i=0; while [ ! -e "$1" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done; echo after',
      'sh',
      gate,
    ],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const recorded = () => {
    try {
      return existsSync(database) && runs(database) === 1;
    } catch {
      return false; // the run is writing it: look again
    }
  };
  await waitFor(recorded, 5000, 'the run row');
  // Moved away first, in one step (the run keeps writing its health file into it), then removed.
  renameSync(dir, `${dir}.gone`);
  rmSync(`${dir}.gone`, { recursive: true, force: true, maxRetries: 5 });
  const deletedAt = performance.now();
  const host = measureHostDelay();
  await waitFor(() => stderr.includes('was deleted'), 3000, 'the line about the deletion');
  // A poll is 200 ms; the margin is for two busy cores, and grows with how slowly this host ran.
  assert.ok(
    performance.now() - deletedAt < host.scaled(1500),
    `noticed after ${Math.round(performance.now() - deletedAt)} ms (host ${host.stretch().toFixed(1)}× slower than idle)`,
  );
  writeFileSync(gate, '');
  assert.equal(await exited, 0, stderr);
  assert.equal(stderr.split('\n').filter((line) => line.includes('was deleted')).length, 1, stderr);
  assert.match(stderr, /with its directory .*the records before it went with it/);
  assert.equal(runs(database), 1, 'the run is recorded again in the re-created directory');
  const db = new DatabaseSync(database, { readOnly: true });
  t.after(() => db.close());
  assert.equal((db.prepare('SELECT outcome FROM runs').get() as { outcome: string }).outcome, 'completed');
});

/** Milliseconds from spawning `deadman run` to the child's first byte on stdout, and the run's stderr. */
function firstByteLatency(
  args: string[],
  onStderr: (stderr: string) => void = () => undefined,
): Promise<{ ms: number; stderr: string; code: number | null }> {
  return new Promise((resolve) => {
    const started = performance.now();
    let ms = -1;
    let stderr = '';
    const child = spawn(
      process.execPath,
      [deadmanBin, 'run', ...args, '--', 'sh', '-c', 'echo first; sleep 1.5; echo second'],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout.once('data', () => (ms = performance.now() - started));
    child.stderr.setEncoding('utf8').on('data', (d: string) => onStderr((stderr += d)));
    child.on('close', (code) => resolve({ ms, stderr, code }));
  });
}

test('a lock held by another writer (BEGIN EXCLUSIVE) delays no byte of the output; dropped records are counted', async (t) => {
  const host = measureHostDelay();
  const dir = tempDir(t);
  const database = join(dir, 'deadman.db');
  assert.equal((await runDeadman(['run', '--state-dir', dir, '--database', database, '--', 'true'], { env })).code, 0);
  const args = ['--state-dir', dir, '--database', database, '--poll', '200ms'];
  const free = await firstByteLatency(args);
  assert.equal(free.code, 0, free.stderr);
  const holder = spawn(
    process.execPath,
    [
      '-e',
      `
    const { DatabaseSync } = require('node:sqlite');
    const db = new DatabaseSync(${JSON.stringify(database)});
    db.exec('BEGIN EXCLUSIVE'); db.exec("INSERT INTO revives (name, session_id, at, attempt, budget, source, argv, outcome) VALUES ('x', 'x', 1, 0, 0, 'marker', '[]', 'held')");
    console.log('locked');
    process.stdin.once('data', () => { db.exec('ROLLBACK'); db.close(); process.exit(0); });
  `,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  t.after(() => holder.kill('SIGKILL'));
  await new Promise((resolve) => holder.stdout.once('data', resolve));
  // The lock is let go once the run said it met it (not after a fixed second: a loaded host
  // may start the run after that), and the run goes on 1.5 s to record again.
  const locked = await firstByteLatency(
    args,
    (stderr) =>
      stderr.includes('locked by another writer') && !holder.stdin.writableEnded && holder.stdin.end('release\n'),
  );
  assert.equal(locked.code, 0, locked.stderr);
  t.diagnostic(`first byte: ${Math.round(free.ms)} ms without the lock, ${Math.round(locked.ms)} ms with it`);
  // Before, the run waited up to 2 s on the lock before the child's first byte: 2.1-2.3 s.
  assert.ok(
    locked.ms < free.ms + host.scaled(1000),
    `first byte after ${Math.round(locked.ms)} ms with the lock, ${Math.round(free.ms)} ms without`,
  );
  assert.equal(
    locked.stderr.split('\n').filter((line) => line.includes('locked by another writer')).length,
    1,
    locked.stderr,
  );
  assert.match(locked.stderr, /recording again in .*\(\d+ records? dropped while it could not be written\)/);
  assert.equal(runs(database), 3, 'the locked run recorded itself once the lock was free');
});
