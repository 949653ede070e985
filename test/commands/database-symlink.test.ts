import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';

/**
 * A symbolic link at the database path (or at its -wal, -shm or -journal) is never followed:
 * planted where a root-run unit keeps its records, it would make deadman write elsewhere. The
 * run still runs the work and says once that it is not recording; readers refuse with one line,
 * exit 74; a link given as --database is refused the same way (pass the real path).
 */

const env = {
  ...process.env,
  DEADMAN_CONFIG: '',
  NOTIFY_SOCKET: '',
  WATCHDOG_USEC: '',
  JOURNAL_STREAM: '',
  INVOCATION_ID: '',
};

/** A real database with one recorded run, in a directory of its own. */
async function realDatabase(dir: string): Promise<string> {
  const database = join(dir, 'real', 'deadman.db');
  const first = await runDeadman(['run', '--state-dir', join(dir, 'real'), '--', 'true'], { env });
  assert.equal(first.code, 0, first.stderr);
  return database;
}

const oneLine = (stderr: string, pattern: RegExp) => stderr.split('\n').filter((line) => pattern.test(line));

test("a symlink at the state directory's database: the run records nothing through it, readers refuse it (74)", async (t) => {
  const dir = tempDir(t);
  const real = await realDatabase(dir);
  const state = join(dir, 'state');
  mkdirSync(state, { mode: 0o700 });
  symlinkSync(real, join(state, 'deadman.db'));

  const run = await runDeadman(['run', '--state-dir', state, '--', 'sh', '-c', 'echo work'], { env });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, 'work\n', 'the work runs');
  assert.equal(oneLine(run.stderr, /symbolic link/).length, 1, run.stderr);
  assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
  assert.equal(
    query<{ n: number }>(real, 'SELECT count(*) AS n FROM runs')[0]!.n,
    1,
    'nothing was written through the link',
  );

  for (const command of [['status'], ['incidents'], ['report', 'latest'], ['metrics']]) {
    const read = await runDeadman([...command, '--state-dir', state], { env });
    assert.equal(read.code, 74, `${command.join(' ')}: ${read.stderr}`);
    assert.deepEqual(
      read.stderr.trim().split('\n'),
      [
        `deadman: ${join(state, 'deadman.db')}: a symbolic link (to ${real}); deadman opens no database through one, which could make it write elsewhere: pass the real path with --database (nothing was opened)`,
      ],
      command.join(' '),
    );
  }
});

test('a link that leads nowhere yet: the run creates nothing where it points, readers refuse it rather than say "nothing recorded"', async (t) => {
  const dir = tempDir(t);
  const state = join(dir, 'state');
  mkdirSync(state, { mode: 0o700 });
  const target = join(dir, 'elsewhere.db');
  symlinkSync(target, join(state, 'deadman.db'));
  const run = await runDeadman(['run', '--state-dir', state, '--', 'true'], { env });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(oneLine(run.stderr, /symbolic link/).length, 1, run.stderr);
  assert.equal(existsSync(target), false, 'nothing was created through the link');
  const read = await runDeadman(['incidents', '--state-dir', state], { env });
  assert.equal(read.code, 74, read.stderr);
  assert.match(read.stderr, /^deadman: .*deadman\.db: a symbolic link \(to .*elsewhere\.db\)/);
});

test('a link an operator gives as --database is refused too, naming the real path to pass', async (t) => {
  const dir = tempDir(t);
  const real = await realDatabase(dir);
  const link = join(dir, 'link.db');
  symlinkSync(real, link);
  const read = await runDeadman(['status', '--database', link], { env });
  assert.equal(read.code, 74, read.stderr);
  assert.match(
    read.stderr,
    /^deadman: .*link\.db: a symbolic link \(to .*real\/deadman\.db\); .*pass the real path with --database/,
  );
  const given = await runDeadman(['status', '--database', real], { env });
  assert.equal(given.code, 0, `the real path reads (its run completed): ${given.stderr}`);
});

test("a symlink planted as the database's -wal (or -journal) is not followed: its target stays as it was", async (t) => {
  const dir = tempDir(t);
  const real = await realDatabase(dir);
  const victim = join(dir, 'victim');
  writeFileSync(victim, 'precious\n');
  for (const suffix of ['-wal', '-journal']) {
    symlinkSync(victim, `${real}${suffix}`);
    const run = await runDeadman(['run', '--state-dir', join(dir, 'real'), '--', 'true'], { env });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(oneLine(run.stderr, new RegExp(`deadman\\.db${suffix}: a symbolic link`)).length, 1, run.stderr);
    assert.equal(readFileSync(victim, 'utf8'), 'precious\n', suffix);
    const read = await runDeadman(['status', '--state-dir', join(dir, 'real')], { env });
    assert.equal(read.code, 74, read.stderr);
    assert.match(read.stderr, new RegExp(`^deadman: .*deadman\\.db${suffix}: a symbolic link .*remove the link`));
    rmSync(`${real}${suffix}`);
  }
});
