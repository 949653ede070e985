import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GitStatusShell, UNANSWERED } from '../../../lib/io/workspace/git-status-shell.ts';
import { tempDir } from '../../helpers/cli.ts';

const STATUS = ['--no-optional-locks', 'status', '--porcelain=v1', '-z', '--untracked-files=all'];

function repository(t: { after(fn: () => void): void }): string {
  const dir = tempDir(t);
  execFileSync('git', ['init', '-q'], { cwd: dir });
  // Names with a newline, spaces, quotes and UTF-8: the answer is git's bytes, whatever they are.
  for (const name of ['plain.txt', 'two\nlines.txt', 'a "quoted" name', 'é ü.txt'])
    writeFileSync(join(dir, name), name);
  return dir;
}

test('each answer is git status -z byte for byte, from one shell kept across questions; null outside a work tree', async (t) => {
  const dir = repository(t);
  const shell = new GitStatusShell(dir, 5_000, 1024 * 1024);
  const expected = execFileSync('git', STATUS, { cwd: dir });
  assert.ok(expected.includes(0) && expected.length > 40);
  assert.deepEqual(await shell.status(), expected);
  writeFileSync(join(dir, 'later.txt'), 'x');
  assert.deepEqual(await shell.status(), execFileSync('git', STATUS, { cwd: dir }));
  const clean = tempDir(t);
  execFileSync('git', ['init', '-q'], { cwd: clean });
  assert.deepEqual(
    await new GitStatusShell(clean, 5_000, 1024).status(),
    Buffer.alloc(0),
    'a clean tree: empty, not null',
  );
  assert.equal(await new GitStatusShell(tempDir(t), 5_000, 1024).status(), null);
});

test('an answer past the timeout or over the size bound is unanswered (not null, which is git saying no), and the next question gets a fresh shell', async (t) => {
  const dir = repository(t);
  const slow = new GitStatusShell(dir, 1, 1024 * 1024);
  assert.equal(await slow.status(), UNANSWERED, 'no git answers within 1 ms');
  assert.equal(await new GitStatusShell(dir, 5_000, 10).status(), UNANSWERED, 'more than 10 bytes');
  const shell = new GitStatusShell(dir, 5_000, 1024 * 1024);
  await shell.status();
  Object.assign(shell, { timeoutMs: 1 });
  assert.equal(await shell.status(), UNANSWERED);
  Object.assign(shell, { timeoutMs: 5_000 });
  assert.deepEqual(await shell.status(), execFileSync('git', STATUS, { cwd: dir }));
});
