import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_PER_SECOND, workspaceFingerprinter } from '../../../lib/io/workspace/workspace-fingerprint.ts';
import { tempDir } from '../../helpers/cli.ts';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, stdio: 'ignore' });
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A clock whose monotonic time stands still (one rate window) and whose wall time is the host's. */
const atZero = { monotonic: () => 0, wall: Date.now };

test('every edit is a new fingerprint, however soon after the last (0.1–0.5 s); no edit, the same; null outside git', async (t) => {
  const dir = tempDir(t);
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'a.txt'), 'one\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'one');
  let now = 0;
  const take = workspaceFingerprinter(dir, { monotonic: () => (now += 1_000), wall: Date.now });
  const seen = [await take()];
  assert.match(seen[0] ?? '', /^[0-9a-f]{16}$/);
  assert.equal(await take(), seen[0], 'nothing changed');
  const edits: Array<() => void> = [
    () => writeFileSync(join(dir, 'a.txt'), 'two\n'), // a tracked file changed
    () => writeFileSync(join(dir, 'a.txt'), 'three\n'), // the same changed file again: its mtime tells
    () => writeFileSync(join(dir, 'new.txt'), 'x'), // an untracked file
    () => writeFileSync(join(dir, 'new.txt'), 'xy'),
    () => (
      mkdirSync(join(dir, 'deep', 'er'), { recursive: true }),
      writeFileSync(join(dir, 'deep', 'er', 'b.txt'), 'b')
    ), // in a new directory
    () => git(dir, 'add', '.'), // staged
    () => renameSync(join(dir, 'new.txt'), join(dir, 'renamed.txt')),
    () => writeFileSync(join(dir, 'a.txt'), 'one\n'), // back as committed
  ];
  for (const [i, edit] of edits.entries()) {
    await settle(100 + (i % 5) * 100);
    edit();
    const next = await take();
    assert.ok(!seen.includes(next), `edit ${i} gave a fingerprint already seen`);
    seen.push(next);
  }
  assert.equal(await workspaceFingerprinter(tempDir(t), atZero)(), null);
});

test('a changed path whose mtime is later than the moment asked for makes the answer unmeasured: an edit after a rerun is not part of it', async (t) => {
  const dir = tempDir(t);
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'parser.ts'), 'attempt 1\n');
  // Asked a second before the file was written: git and the stat read the tree late, after the edit.
  const late = await workspaceFingerprinter(dir, { monotonic: () => 0, wall: () => Date.now() - 1_000 })();
  assert.ok(late?.startsWith('unmeasured-'), String(late));
  // Asked after it: the edit was there when the tool ended, and the answer is measured (and stable).
  const inTime = workspaceFingerprinter(dir, { monotonic: () => 0, wall: () => Date.now() + 1_000 });
  const first = await inTime();
  assert.match(first ?? '', /^[0-9a-f]{16}$/);
  assert.equal(await inTime(), first);
});

test('past MAX_PER_SECOND in a second, each answer is unmeasured, one never seen, so a flood runs no git', async (t) => {
  const dir = tempDir(t);
  git(dir, 'init', '-q');
  let now = 0;
  const take = workspaceFingerprinter(dir, { monotonic: () => now, wall: Date.now });
  const answers: Array<string | null> = [];
  for (let i = 0; i < MAX_PER_SECOND + 3; i++) answers.push(await take());
  assert.equal(new Set(answers.slice(0, MAX_PER_SECOND)).size, 1, 'measured: the same');
  assert.equal(new Set(answers.slice(MAX_PER_SECOND)).size, 3, 'unmeasured: each its own');
  now += 1_000;
  assert.equal(await take(), answers[0], 'a new second measures again');
});

test('asked while git runs, the answer is unmeasured at once: no queue for a tick to wait out, no git that reads the tree late', async (t) => {
  const dir = tempDir(t);
  git(dir, 'init', '-q');
  const take = workspaceFingerprinter(dir, atZero);
  // Issue 38: a queue of every git asked for grew under a flood; the tick waited for all of it.
  // And one git waiting behind another read the tree after the agent's next edit (run-fast-edits).
  const answers = await Promise.all(Array.from({ length: 5 }, () => take()));
  assert.match(answers[0] ?? '', /^[0-9a-f]{16}$/, 'the running git: measured');
  assert.equal(new Set(answers.slice(1)).size, 4, 'the rest: each its own (unmeasured)');
  assert.ok(
    answers.slice(1).every((answer) => answer?.startsWith('unmeasured-')),
    answers.join(', '),
  );
  assert.equal(await take(), answers[0], 'once answered, git is asked again');
});

test('a git that gives no answer in time or in bounds is unmeasured each time, never null (the same as last time)', async (t) => {
  // On a loaded host git ran past its time: both answers were null, read as "unchanged", and an
  // agent that edited between two reruns of a failing test got REPEATED_FAILURE.
  const dir = tempDir(t);
  git(dir, 'init', '-q');
  const bin = tempDir(t);
  writeFileSync(join(bin, 'git'), '#!/bin/sh\nhead -c 5000000 /dev/zero | tr "\\0" a\n', { mode: 0o755 });
  const path = process.env.PATH;
  process.env.PATH = `${bin}:${path}`;
  t.after(() => {
    process.env.PATH = path;
  });
  const take = workspaceFingerprinter(dir, atZero);
  const first = await take();
  const second = await take();
  assert.ok(
    first?.startsWith('unmeasured-') && second?.startsWith('unmeasured-') && first !== second,
    `${first}, ${second}`,
  );
});

test('every pass of a run asks the same git shell: one per work tree for the process, however many fingerprinters', async (t) => {
  const dir = tempDir(t);
  git(dir, 'init', '-q');
  const passes = [workspaceFingerprinter(dir, atZero), workspaceFingerprinter(dir, atZero)];
  const answers = await Promise.all(passes.map((take) => take()));
  assert.equal(new Set(answers).size, 1, 'asked at once, each gets its own answer');
  assert.equal(gitShellsIn(dir).length, 1);
});

/** This process's children that are git status shells working in `dir` (Linux /proc). */
function gitShellsIn(dir: string): string[] {
  return readdirSync('/proc').filter((pid) => {
    try {
      const parent = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1];
      return (
        parent === String(process.pid) &&
        readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('git --no-optional-locks status') &&
        realpathSync(`/proc/${pid}/cwd`) === realpathSync(dir)
      );
    } catch {
      return false; // not a process, or gone
    }
  });
}
