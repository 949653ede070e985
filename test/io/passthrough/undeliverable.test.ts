import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, tempDir } from '../../helpers/cli.ts';
import { query } from '../../helpers/db.ts';

/**
 * When deadman's own stdout stops taking output (its reader went away: EPIPE; a redirect to a
 * full disk: ENOSPC, from /dev/full), deadman says so
 * in one line and records it, and the work goes on: the child keeps writing without dying of
 * SIGPIPE or blocking, finishes, and its exit code is deadman's.
 */

/** 20 MB to stdout after a first line, then a word on stderr and exit 7. */
const WRITER = `process.stdout.write('first\\n');
setTimeout(() => {
  const block = Buffer.alloc(1_000_000, 'z'); let i = 0;
  const next = () => { while (i < 20) { i++; if (!process.stdout.write(block)) return void process.stdout.once('drain', next); } process.stderr.write('child finished writing\\n'); process.exitCode = 7; };
  next();
}, 200);`;

for (const adapter of ['generic', 'codex']) {
  test(`${adapter}: a reader that goes away costs one "could not deliver" line and a record, never the work`, async (t) => {
    const dir = tempDir(t);
    const database = join(dir, 'deadman.db');
    const child = spawn(
      process.execPath,
      [deadmanBin, 'run', '--adapter', adapter, '--database', database, '--', process.execPath, '-e', WRITER],
      {
        env: { ...process.env, NOTIFY_SOCKET: '', STATE_DIRECTORY: dir },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    // The first line proves the passthrough works; then the reader closes its end of the pipe.
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise((resolve) => child.on('close', resolve));

    assert.equal(code, 7, `the child's exit code is kept:\n${stderr}`);
    assert.match(stderr, /child finished writing/, 'the child wrote everything, undisturbed');
    const notices = stderr.split('\n').filter((line) => line.includes('could not deliver'));
    assert.equal(notices.length, 1, stderr);
    assert.match(notices[0]!, /could not deliver the child's stdout to deadman's stdout \(EPIPE\)/);
    const rows = query<{ stream: string; raw: string }>(
      database,
      "SELECT stream, raw FROM events WHERE kind = 'undelivered'",
    );
    assert.deepEqual(
      rows.map((r) => r.stream),
      ['stdout'],
    );
    assert.match(rows[0]!.raw, /EPIPE/);
  });
}

test('a redirect to a full disk (/dev/full) costs one "could not deliver" line (ENOSPC), never the work', async (t) => {
  const dir = tempDir(t);
  const database = join(dir, 'deadman.db');
  const full = openSync('/dev/full', 'w');
  t.after(() => closeSync(full));
  const child = spawn(
    process.execPath,
    [deadmanBin, 'run', '--adapter', 'codex', '--database', database, '--', process.execPath, '-e', WRITER],
    {
      env: { ...process.env, NOTIFY_SOCKET: '', STATE_DIRECTORY: dir },
      stdio: ['ignore', full, 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const code = await new Promise((resolve) => child.on('close', resolve));
  assert.equal(code, 7, stderr);
  assert.match(stderr, /child finished writing/);
  assert.equal(
    stderr
      .split('\n')
      .filter((line) => /could not deliver the child's stdout to deadman's stdout \(ENOSPC\)/.test(line)).length,
    1,
    stderr,
  );
  assert.equal(query(database, "SELECT 1 FROM events WHERE kind = 'undelivered'").length, 1);
});
