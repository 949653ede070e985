import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { processKey } from '../../../lib/core/process/process-info.ts';
import { findHungSubtree } from '../../../lib/core/detect/hung.ts';
import { emptyProgress, updateProgress } from '../../../lib/core/detect/process-progress.ts';
import { activityFloors } from '../../../lib/core/detect/tree-activity.ts';
import { DEFAULT_CONFIG } from '../../../lib/core/config/defaults.ts';
import { systemClock } from '../../../lib/io/time/clock.ts';
import { createLinuxObserver } from '../../../lib/io/process/proc-linux.ts';
import { readProcStat } from '../../../lib/io/process/process-identity.ts';
import { tempDir, waitFor } from '../../helpers/cli.ts';
import { nodeFixture, shellFixture, startTree } from '../../helpers/process-tree.ts';

const observerOf = (rootPid: number, forceProcScan = false) =>
  createLinuxObserver({ rootPid, useCgroup: false, monotonic: systemClock.monotonic, forceProcScan });
const pidsOf = (observer: ReturnType<typeof observerOf>) => observer.observe().processes.map((p) => p.pid);

test('finds a grandchild in its own session, by children files and by the /proc scan alike', async (t) => {
  const tree = startTree(t, shellFixture('session-grandchild.sh'), []);
  const grandchild = Number(await tree.nextLine());
  tree.adopt(grandchild);
  for (const forceProcScan of [false, true]) {
    const observer = observerOf(tree.pid, forceProcScan);
    const found = await waitFor(
      () => observer.observe().processes.find((p) => p.pid === grandchild && p.comm === 'sleep'),
      5_000,
      'the sleep',
    );
    assert.equal(found.sid, grandchild, 'a session leader');
    assert.deepEqual(found.cmdline, ['sleep', '600']);
    assert.equal(typeof found.ioBytes, 'number');
    assert.ok(observer.isOwned(found));
    assert.equal(observer.observe().processes.length, 3, 'script, inner shell, sleep');
    assert.ok(!observer.isOwned({ pid: process.pid, startTime: 0 }));
  }
});

test('remembers a descendant that was reparented away by a double fork', async (t) => {
  const tree = startTree(t, shellFixture('double-fork.sh'), ['stdin'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const escaped = Number(await tree.nextLine());
  tree.adopt(escaped);
  const observer = observerOf(tree.pid);
  const seen = observer.observe().processes.find((p) => p.pid === escaped);
  assert.ok(seen, 'seen while its parent subshell still lingers');
  tree.child.stdin!.end('go\n');
  await waitFor(
    () => observer.observe().processes.find((p) => p.pid === escaped && p.ppid !== seen.ppid),
    5_000,
    'the reparenting',
  );
  assert.ok(pidsOf(observer).includes(escaped), 'still owned after losing its parent');
  assert.ok(observer.isOwned(seen));
  assert.ok(
    observer.listSubtree({ pid: tree.pid, startTime: observer.known()[0]!.startTime }).every((p) => p.pid !== escaped),
    'the fresh PID chain no longer reaches it',
  );
});

test('an immediate double fork escapes the PID chain (the documented limit without a cgroup)', async (t) => {
  const tree = startTree(t, shellFixture('double-fork.sh'), ['0']);
  const escaped = Number(await tree.nextLine());
  tree.adopt(escaped);
  // The script execs `sleep` only once the subshell has exited: the chain is broken by then.
  await waitFor(() => readProcStat(tree.pid)?.comm === 'sleep', 5_000, 'the subshell to exit');
  const observer = observerOf(tree.pid);
  assert.deepEqual(pidsOf(observer), [tree.pid]);
  assert.ok(!observer.isOwned({ pid: escaped, startTime: readProcStat(escaped)!.startTime }));
});

const runTag = 'c0ffee'.padEnd(32, '0');
const tagged = { ...process.env, DEADMAN_RUN_TAG: runTag };

test('a tagged process escaped at once from a tree that ran is found within two polls', async (t) => {
  // Reads (asleep) until told, then leaves a setsid sleep behind a subshell that exits at once.
  const script = 'read go; (setsid sleep 600 >/dev/null 2>&1 & echo $!); exec sleep 600';
  const tree = startTree(t, '/bin/sh', ['-c', script], { stdio: ['pipe', 'pipe', 'inherit'], env: tagged });
  let now = 0;
  const observer = createLinuxObserver({ rootPid: tree.pid, useCgroup: false, monotonic: () => now, runTag });
  for (; now <= 10_000; now += 1_000) observer.observe();
  tree.child.stdin!.write('go\n');
  const escaped = Number(await tree.nextLine());
  tree.adopt(escaped);
  await waitFor(() => readProcStat(tree.pid)?.comm === 'sleep', 5_000, 'the subshell to exit');
  // The poll that sees the root ran (it exec'd) makes a sweep due 5 s after the last one: the next poll.
  observer.observe();
  now += 1_000;
  observer.observe();
  assert.ok(observer.known().some((p) => p.pid === escaped));
});

test('while the tree is still, a tagged process started outside it (an at job) is found within 60 s', async (t) => {
  const tree = startTree(t, '/bin/sh', ['-c', 'read go'], { stdio: ['pipe', 'pipe', 'inherit'] });
  let now = 0;
  const observer = createLinuxObserver({ rootPid: tree.pid, useCgroup: false, monotonic: () => now, runTag });
  await waitFor(() => readProcStat(tree.pid)?.state === 'S', 5_000, 'the shell to wait in read');
  // Sweeps at 0 and at 5 s (the first walk saw every process anew); the walks after are still.
  for (; now <= 10_000; now += 1_000) observer.observe();
  // Not the tree's child, and the tree does not run: only a sweep can find it.
  const outside = startTree(t, 'sleep', ['600'], { env: tagged, stdio: 'ignore' });
  const found = () => observer.known().some((p) => p.pid === outside.pid);
  for (; now < 65_000; now += 1_000) {
    observer.observe();
    assert.ok(!found(), `no sweep at ${now} ms: nothing in the tree ran`);
  }
  observer.observe();
  assert.ok(found(), 'the sweep 60 s after the last');
});

test('a zombie is not alive; a process that vanished is forgotten', async (t) => {
  // The shell becomes `sleep 600`, which never reaps the short sleep it started: a zombie.
  const tree = startTree(t, '/bin/sh', ['-c', 'sleep 0.1 & echo $!; exec sleep 600']);
  const zombie = Number(await tree.nextLine());
  const observer = observerOf(tree.pid);
  await waitFor(() => observer.readProcess(zombie)?.state === 'Z', 5_000, 'the zombie');
  assert.deepEqual(pidsOf(observer), [tree.pid]);
  process.kill(-tree.pid, 'SIGKILL');
  await waitFor(() => observer.observe().processes.length === 0, 5_000, 'the tree to be gone');
  assert.deepEqual(observer.known(), []);
});

test('marks a TCP listener, and only it, as listening', async (t) => {
  const tree = startTree(t, process.execPath, [nodeFixture('tcp-listener')]);
  const [pid, port] = (await tree.nextLine()).split(' ').map(Number);
  const observer = observerOf(tree.pid);
  const listener = observer.observe().processes.find((p) => p.pid === pid);
  assert.equal(listener?.listening, true);
  const client = startTree(t, process.execPath, [
    '-e',
    `require('net').connect(${port}, '127.0.0.1', () => console.log('connected')); setInterval(() => {}, 1e6)`,
  ]);
  assert.equal(await client.nextLine(), 'connected');
  const [clientProcess] = observerOf(client.pid).observe().processes;
  assert.equal(clientProcess?.listening, false, 'a connected client socket is not a server');
});

test('notices a process that starts listening or execs after it was first seen', async (t) => {
  const late = `setTimeout(() => require('net').createServer().listen(0, '127.0.0.1', () => console.log('listening')), 300); setInterval(() => {}, 1e6)`;
  const tree = startTree(t, process.execPath, ['-e', late]);
  const observer = observerOf(tree.pid);
  assert.equal(observer.observe().processes[0]?.listening, false);
  assert.equal(await tree.nextLine(), 'listening');
  assert.equal(observer.observe().processes[0]?.listening, true, 'the new fd made it look again');

  const execing = startTree(t, '/bin/sh', ['-c', 'read line; exec sleep 600'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const shell = observerOf(execing.pid);
  assert.deepEqual(shell.observe().processes[0]?.cmdline, ['/bin/sh', '-c', 'read line; exec sleep 600']);
  execing.child.stdin!.end('go\n');
  await waitFor(() => shell.observe().processes[0]?.cmdline.join(' ') === 'sleep 600', 5_000, 'the new command line');
});

test('counts I/O bytes and CPU ticks of a working process', async (t) => {
  const tree = startTree(t, '/bin/sh', ['-c', 'yes > /dev/null']);
  const observer = observerOf(tree.pid);
  const yes = () => observer.observe().processes.find((p) => p.comm === 'yes');
  const first = await waitFor(yes, 5_000, 'yes to start');
  const later = await waitFor(
    () => {
      const p = yes()!;
      return p.cpuTicks > first.cpuTicks && p.ioBytes! > first.ioBytes! ? p : null;
    },
    5_000,
    'CPU and I/O to move',
  );
  assert.ok(later.ioBytes! > 0);
});

test('processes vanishing mid-walk are normal: a churning tree never throws', async (t) => {
  const tree = startTree(t, '/bin/sh', ['-c', 'while :; do /bin/true & /bin/true; done']);
  const observer = observerOf(tree.pid);
  for (let i = 0; i < 100; i++) {
    const { processes } = observer.observe();
    assert.ok(processes.some((p) => p.pid === tree.pid));
    assert.ok(processes.every((p) => p.state !== 'Z'));
  }
});

test(
  'over 3× hung_timeout the detector never picks a busy, writing, listening or baseline process',
  { timeout: 30_000 },
  async (t) => {
    const HUNG_TIMEOUT_MS = 1_000;
    const file = join(tempDir(t), 'written');
    // 100 KB/s: above the I/O floor (a writer under it would be hung: hung-floors.test.ts).
    const writer =
      'import sys, time\nf = open(sys.argv[1], "a")\nwhile True:\n    f.write("x" * 20000); f.flush(); f.truncate(0); time.sleep(0.2)';
    // Each in its own session, like a tool command; the last sleep is an idle tool: the control.
    const script = `setsid sleep 600 >/dev/null 2>&1 & echo $!; read go
    setsid sh -c 'exec yes > /dev/null' & echo $!
    setsid python3 -c "$1" "$2" & echo $!
    setsid "$0" "$3" & echo $!
    setsid sleep 600 >/dev/null 2>&1 & echo $!
    wait`;
    const tree = startTree(t, '/bin/sh', ['-c', script, process.execPath, writer, file, nodeFixture('tcp-listener')], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const baselinePid = Number(await tree.nextLine());
    const observer = observerOf(tree.pid);
    const baselineInfo = await waitFor(
      () => observer.observe().processes.find((p) => p.pid === baselinePid && p.comm === 'sleep'),
      5_000,
      'the helper',
    );
    const baseline = new Set([processKey(baselineInfo)]);
    tree.child.stdin!.write('go\n');
    // Four pids from the script and the listener's "<pid> <port>" (it listens by then), in any order.
    const lines = await Promise.all(Array.from({ length: 5 }, () => tree.nextLine()));
    const [busy, writing, listening, control] = lines.filter((line) => !line.includes(' ')).map(Number) as [
      number,
      number,
      number,
      number,
    ];
    for (const pid of [baselinePid, busy, writing, listening, control]) tree.adopt(pid);
    const lastOutputAt = systemClock.monotonic();
    const protectedPids = new Set([baselinePid, busy, writing, listening]);

    let progress = emptyProgress;
    let observation = observer.observe();
    const targets = new Set<number>();
    const options = {
      hungTimeoutMs: HUNG_TIMEOUT_MS,
      lastOutputAt,
      baseline,
      ignore: [],
      openTools: [],
      firstToolAt: null,
      requireOpenTool: false,
    };
    for (
      const deadline = lastOutputAt + 3 * HUNG_TIMEOUT_MS + 300;
      systemClock.monotonic() < deadline;
      await delay(100)
    ) {
      observation = observer.observe();
      progress = updateProgress(progress, observation, activityFloors(DEFAULT_CONFIG.activity));
      const finding = findHungSubtree(observation, progress, options);
      if (finding) targets.add(finding.target.pid);
      assert.ok(!finding?.subtree.some((p) => protectedPids.has(p.pid)), `picked ${finding?.reason}`);
    }
    assert.deepEqual([...targets], [control], 'the idle tool command, and only it, was found');
    // The guards, not luck, protected them: without each guard its process is picked.
    assert.equal(findHungSubtree(observation, progress, { ...options, baseline: new Set() })?.target.pid, baselinePid);
    const noListening = { ...observation, processes: observation.processes.map((p) => ({ ...p, listening: false })) };
    assert.equal(findHungSubtree(noListening, progress, { ...options, ignore: [/^sleep/] })?.target.pid, listening);
  },
);
