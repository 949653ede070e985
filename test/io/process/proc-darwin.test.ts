import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from '../../../lib/io/time/clock.ts';
import { createDarwinObserver } from '../../../lib/io/process/proc-darwin.ts';
import { repoRoot, waitFor } from '../../helpers/cli.ts';
import { nodeFixture, shellFixture, startTree } from '../../helpers/process-tree.ts';

// The macOS observer runs on Linux too: procps `ps` prints the same columns, and lsof exists.
const epochSeconds = (...parts: [number, number, number, number, number, number]) =>
  new Date(...parts).getTime() / 1000;
const observerOf = (rootPid: number) => createDarwinObserver({ rootPid, monotonic: systemClock.monotonic });

test('walks the tree from one ps listing and remembers a reparented descendant', async (t) => {
  const tree = startTree(t, shellFixture('double-fork.sh'), ['stdin'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const escaped = Number(await tree.nextLine());
  tree.adopt(escaped);
  const observer = observerOf(tree.pid);
  // The pid is printed by the forked subshell before it execs setsid and sleep: on a busy host ps may still see the shell.
  const listed = () => observer.observe().processes.find((p) => p.pid === escaped);
  await waitFor(() => listed()?.cmdline[0] === 'sleep', 5_000, 'the escaped process to be sleep');
  const seen = listed();
  assert.deepEqual(seen?.cmdline, ['sleep', '600']);
  assert.equal(seen?.ioBytes, null);
  // Its parent subshell lingers until told: a loaded host cannot make the two looks miss it.
  tree.child.stdin!.end('go\n');
  await waitFor(() => observer.readProcess(escaped)?.ppid !== seen?.ppid, 5_000, 'the reparenting');
  assert.ok(
    observer.observe().processes.some((p) => p.pid === escaped),
    'still owned',
  );
  assert.ok(observer.isOwned(seen!));
  assert.equal(observer.readProcess(escaped)?.startTime, seen?.startTime, 'the same identity from ps -p');
  assert.equal(observer.readProcess(2 ** 22 + 1), null);
});

test('marks a listening process through lsof', async (t) => {
  const tree = startTree(t, process.execPath, [nodeFixture('tcp-listener')]);
  await tree.nextLine();
  const [listener] = observerOf(tree.pid).observe().processes;
  assert.equal(listener?.listening, true);
  const idle = startTree(t, 'sleep', ['600']);
  assert.equal(observerOf(idle.pid).observe().processes[0]?.listening, false);
});

test('with a run tag, owns the tagged processes that left the PID chain unseen, sweeping on schedule (recorded-shape output)', () => {
  // Hand-made in the shape of macOS ps output (not captured on a Mac): procps has no `ps -E`.
  const table = readFileSync(join(repoRoot, 'test/fixtures/ps-darwin-tagged.txt'), 'utf8');
  const listing = readFileSync(join(repoRoot, 'test/fixtures/ps-darwin-env.txt'), 'utf8');
  let now = 0;
  let sweeps = 0;
  const observer = createDarwinObserver({
    rootPid: 4100,
    selfPid: 4000,
    uid: 501,
    runTag: '5f0c2a9e8d7b4c3a1f6e0d9c8b7a6f5e',
    monotonic: () => now,
    run: (file, args) => {
      if (file === 'lsof') return '';
      if (args[0] !== '-E') return table;
      sweeps += 1;
      return listing;
    },
  });
  assert.deepEqual(
    observer
      .observe()
      .processes.map((p) => p.pid)
      .sort(),
    [4100, 4700, 4705],
  );
  assert.equal(sweeps, 1, 'the first poll sweeps');
  now = 1_000;
  assert.deepEqual(
    observer
      .observe()
      .processes.map((p) => p.pid)
      .sort(),
    [4100, 4700, 4705],
    'remembered between sweeps',
  );
  assert.equal(sweeps, 1, 'not every poll');
  now = 6_000;
  observer.observe();
  assert.equal(sweeps, 2, 'every few seconds');
  observer.observe(true);
  assert.equal(sweeps, 3, 'when asked (a stop)');
  assert.equal(
    observer.isOwned({ pid: 4701, startTime: epochSeconds(2026, 11, 1, 8, 39, 29) }),
    false,
    "another run's tag",
  );
});
