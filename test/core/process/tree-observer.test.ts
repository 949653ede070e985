import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indexChildren, walkOwnedTree, type Seed } from '../../../lib/core/process/owned-tree.ts';
import type { ProcessInfo } from '../../../lib/core/process/process-info.ts';
import { createTreeObserver, type ObserverParts } from '../../../lib/core/process/tree-observer.ts';

function proc(pid: number, ppid: number): ProcessInfo {
  return {
    pid,
    ppid,
    pgid: pid,
    sid: pid,
    startTime: pid * 10,
    state: 'S',
    comm: `p${pid}`,
    cmdline: [`p${pid}`],
    cpuTicks: 0,
    ioBytes: 0,
    listening: false,
  };
}

/** A host the test edits, walked the way the OS observers walk theirs. */
function host(rows: ProcessInfo[], parts: Partial<ObserverParts> = {}) {
  let now = 0;
  const table = new Map(rows.map((p) => [p.pid, p]));
  const tagLooks: number[] = [];
  const observer = createTreeObserver({
    rootPid: 100,
    rootStartTime: table.get(100)?.startTime,
    monotonic: () => now,
    walk: (seeds: Seed[]) => {
      const children = indexChildren(table.values());
      return walkOwnedTree(
        seeds,
        (pid) => table.get(pid) ?? null,
        (pid) => children.get(pid) ?? [],
        new Set([0, 1]),
      );
    },
    readProcess: (pid) => table.get(pid) ?? null,
    findTagged: () => {
      tagLooks.push(now);
      return [];
    },
    ...parts,
  });
  return { observer, table, tagLooks, advance: (ms: number) => void (now += ms) };
}

const pids = (processes: readonly ProcessInfo[]) => processes.map((p) => p.pid).sort((a, b) => a - b);

test('a process reparented away from the root stays owned while it lives with its start time', () => {
  const { observer, table } = host([proc(100, 1), proc(101, 100), proc(102, 101)]);
  assert.deepEqual(pids(observer.observe().processes), [100, 101, 102]);
  table.delete(101);
  table.set(102, { ...table.get(102)!, ppid: 1 });
  assert.deepEqual(pids(observer.observe().processes), [100, 102]);
  assert.ok(observer.isOwned({ pid: 102, startTime: 1020 }));
  // The pid taken again by another process (another start time) is not the run's.
  table.set(102, { ...proc(102, 1), startTime: 5 });
  assert.deepEqual(pids(observer.observe().processes), [100]);
  assert.equal(observer.isOwned({ pid: 102, startTime: 1020 }), false);
});

test('tagged processes are looked for at the first poll, every 5 s, when asked, and at every poll once the root is gone', () => {
  const { observer, table, tagLooks, advance } = host([proc(100, 1)]);
  observer.observe();
  advance(1_000);
  observer.observe();
  advance(1_000);
  observer.observe(true);
  advance(4_000);
  observer.observe();
  assert.deepEqual(tagLooks, [0, 2_000]);
  advance(1_000);
  observer.observe();
  assert.deepEqual(tagLooks, [0, 2_000, 7_000]);
  // The poll that first misses the root still goes by the one before; from the next on, every poll looks.
  table.delete(100);
  observer.observe();
  advance(1);
  observer.observe();
  advance(1);
  observer.observe();
  assert.deepEqual(tagLooks, [0, 2_000, 7_000, 7_001, 7_002]);
});

test('the OS parts add seeds, ownership, a forget step and fields of the observation', () => {
  const told: number[][] = [];
  const { observer } = host([proc(100, 1), proc(200, 1)], {
    findTagged: null,
    moreSeeds: () => [{ pid: 200 }],
    ownedElsewhere: (p) => p.pid === 300,
    afterPoll: (alive) => void told.push(pids(alive)),
    extra: () => ({ cgroupCpuMs: 42 }),
  });
  const observation = observer.observe();
  assert.deepEqual(
    { ...observation, processes: pids(observation.processes) },
    { at: 0, rootPid: 100, processes: [100, 200], cgroupCpuMs: 42 },
  );
  assert.deepEqual(told, [[100, 200]]);
  assert.ok(observer.isOwned({ pid: 300, startTime: 1 }));
  assert.deepEqual(pids(observer.known()), [100, 200]);
  assert.deepEqual(pids(observer.listSubtree({ pid: 200, startTime: 2000 })), [200]);
});

test('while no owned process runs, tagged processes are looked for every 60 s instead of every 5 s', () => {
  let still = true;
  const { observer, table, tagLooks, advance } = host([proc(100, 1), proc(101, 100)], { walkedStill: () => still });
  const pollFor = (ms: number) => {
    for (let end = ms; end > 0; end -= 1_000) {
      advance(1_000);
      observer.observe();
    }
  };
  observer.observe();
  // The first walk saw every process anew (they ran): the next sweep still comes 5 s later.
  pollFor(5_000);
  assert.deepEqual(tagLooks, [0, 5_000]);
  pollFor(59_000);
  assert.deepEqual(tagLooks, [0, 5_000], 'a still tree makes no tagged process');
  pollFor(1_000);
  assert.deepEqual(tagLooks, [0, 5_000, 65_000], 'a spawner outside the tree (an `at` job) is still found');
  // One poll that saw a process run: the next sweep is due 5 s after the last one.
  advance(1_000);
  still = false;
  observer.observe();
  still = true;
  pollFor(4_000);
  assert.deepEqual(tagLooks, [0, 5_000, 65_000, 70_000]);
  // The sweep's own walk was still: back to 60 s.
  pollFor(10_000);
  assert.deepEqual(tagLooks, [0, 5_000, 65_000, 70_000]);
  // A process that vanished ran (to its end): the next poll, 12 s after the last sweep, looks.
  table.delete(101);
  pollFor(2_000);
  assert.equal(tagLooks.at(-1), 82_000);
  // One seen anew ran too.
  table.set(102, proc(102, 100));
  pollFor(10_000);
  assert.deepEqual(tagLooks.slice(4), [82_000, 87_000]);
  pollFor(50_000);
  assert.deepEqual(tagLooks.slice(4), [82_000, 87_000]);
});

test('a walk of a subtree that saw a process run counts too; asked sweeps and a gone root do not wait', () => {
  let still = true;
  const { observer, table, tagLooks, advance } = host([proc(100, 1)], { walkedStill: () => still });
  observer.observe();
  advance(5_000);
  observer.observe();
  advance(5_000);
  observer.observe();
  assert.deepEqual(tagLooks, [0, 5_000]);
  still = false;
  observer.listSubtree({ pid: 100, startTime: 1000 });
  still = true;
  advance(1_000);
  observer.observe();
  assert.deepEqual(tagLooks, [0, 5_000, 11_000]);
  advance(1_000);
  observer.observe(true);
  assert.deepEqual(tagLooks, [0, 5_000, 11_000, 12_000]);
  table.delete(100);
  for (let i = 0; i < 3; i++) {
    advance(1_000);
    observer.observe();
  }
  assert.deepEqual(tagLooks, [0, 5_000, 11_000, 12_000, 14_000, 15_000]);
});
