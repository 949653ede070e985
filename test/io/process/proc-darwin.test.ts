import { test } from 'node:test';
import assert from 'node:assert/strict';
import { systemClock } from '../../../lib/io/clock.ts';
import { createDarwinObserver } from '../../../lib/io/process/proc-darwin.ts';
import { waitFor } from '../../helpers/cli.ts';
import { nodeFixture, shellFixture, startTree } from '../../helpers/process-tree.ts';

// The macOS observer runs on Linux too: procps `ps` prints the same columns, and lsof exists.
const observerOf = (rootPid: number) => createDarwinObserver({ rootPid, monotonic: systemClock.monotonic });

test('walks the tree from one ps listing and remembers a reparented descendant', async (t) => {
  const tree = startTree(t, shellFixture('double-fork.sh'), ['1']);
  const escaped = Number(await tree.nextLine());
  tree.adopt(escaped);
  const observer = observerOf(tree.pid);
  const seen = observer.observe().processes.find((p) => p.pid === escaped);
  assert.deepEqual(seen?.cmdline, ['sleep', '600']);
  assert.equal(seen?.ioBytes, null);
  await waitFor(() => observer.readProcess(escaped)?.ppid !== seen?.ppid, 5_000, 'the reparenting');
  assert.ok(observer.observe().processes.some((p) => p.pid === escaped), 'still owned');
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
