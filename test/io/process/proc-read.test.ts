import { test } from 'node:test';
import assert from 'node:assert/strict';
import { systemClock } from '../../../lib/io/time/clock.ts';
import { createLinuxObserver } from '../../../lib/io/process/proc-linux.ts';
import { LinuxProcessReader } from '../../../lib/io/process/proc-read.ts';
import { waitFor } from '../../helpers/cli.ts';
import { startTree } from '../../helpers/process-tree.ts';

/**
 * A poll reads only stat and schedstat of a process that was not scheduled since the last one
 * (what keeps a poll of 1,000 idle processes cheap, bench/poll-cost.ts); anything a process
 * can change only by running must still be seen at the next poll once it runs.
 */

test('a process asleep since the last read has not run; a busy one has', async (t) => {
  const asleep = startTree(t, 'sleep', ['600']);
  const busy = startTree(t, '/bin/sh', ['-c', 'while :; do :; done']);
  const reader = new LinuxProcessReader(systemClock.monotonic);
  await waitFor(() => reader.read(asleep.pid)?.info.comm === 'sleep', 5_000, 'sleep to exec');
  // Its scheduler statistics are read from the read after stat showed one thread.
  reader.read(asleep.pid);
  assert.equal(reader.read(asleep.pid)?.ran, false, 'not scheduled between two reads');
  assert.equal(reader.read(asleep.pid, () => true)?.ran, false, 'nor when its parent stayed (schedstat alone read)');
  reader.read(busy.pid);
  await waitFor(() => reader.read(busy.pid)?.ran, 5_000, 'the busy loop to be seen running');
  reader.keepOnly([]);
  assert.equal(reader.read(asleep.pid)?.ran, true, 'a forgotten process is read whole again');
});

test('an idle process that wakes and forks is seen with its child and its I/O at the next poll', async (t) => {
  const tree = startTree(t, '/bin/sh', ['-c', 'read line; sleep 600 & echo $!; wait'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const observer = createLinuxObserver({ rootPid: tree.pid, useCgroup: false, monotonic: systemClock.monotonic });
  // Blocked in read(): two polls in a row see it not scheduled, so the second reuses its children.
  const before = await waitFor(
    () => {
      const first = observer.observe().processes;
      const second = observer.observe().processes;
      return first.length === 1 && second.length === 1 && first[0]!.ioBytes === second[0]!.ioBytes ? second[0] : null;
    },
    5_000,
    'two quiet polls of the shell',
  );
  tree.child.stdin!.write('go\n');
  const sleeper = Number(await tree.nextLine());
  tree.adopt(sleeper);
  const after = observer.observe().processes;
  assert.deepEqual(
    after.map((p) => p.pid).sort(),
    [tree.pid, sleeper].sort(),
    'the new child, at the first poll after the fork',
  );
  const shell = after.find((p) => p.pid === tree.pid)!;
  assert.ok(shell.ioBytes! > before.ioBytes!, `its read and write counted: ${before.ioBytes} → ${shell.ioBytes}`);
});

test('an idle child whose parent exited is seen with its new parent at the next poll', async (t) => {
  const tree = startTree(t, '/bin/sh', ['-c', 'sleep 600 & echo $!; read line'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const sleeper = Number(await tree.nextLine());
  tree.adopt(sleeper);
  const observer = createLinuxObserver({ rootPid: tree.pid, useCgroup: false, monotonic: systemClock.monotonic });
  const sleepOf = () => observer.observe().processes.find((p) => p.pid === sleeper && p.comm === 'sleep');
  await waitFor(
    () => sleepOf() && sleepOf() && sleepOf()?.ppid === tree.pid,
    5_000,
    'quiet polls of the sleep under its shell',
  );
  const exited = new Promise((resolve) => tree.child.once('exit', resolve));
  tree.child.stdin!.end('go\n');
  await exited;
  const after = sleepOf();
  assert.ok(after, 'still owned once its parent is gone');
  assert.notEqual(after.ppid, tree.pid, 'reparented: its stat was read again, its parent having exited');
});
