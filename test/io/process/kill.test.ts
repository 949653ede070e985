import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { spawnSync } from 'node:child_process';
import { findHungSubtree } from '../../../lib/core/detect/hung.ts';
import { bornAt } from '../../../lib/core/process/process-info.ts';
import { emptyProgress, updateProgress } from '../../../lib/core/detect/process-progress.ts';
import { activityFloors } from '../../../lib/core/detect/tree-activity.ts';
import { DEFAULT_CONFIG } from '../../../lib/core/config/defaults.ts';
import { systemClock } from '../../../lib/io/time/clock.ts';
import { stopOwnedTree, terminateSubtree } from '../../../lib/io/process/kill.ts';
import { createLinuxObserver } from '../../../lib/io/process/proc-linux.ts';
import { isSameProcessAlive } from '../../../lib/io/process/process-identity.ts';
import { runProgram, waitFor } from '../../helpers/cli.ts';
import { measureHostDelay } from '../../helpers/host-delay.ts';
import { nodeFixture, shellFixture, startTree } from '../../helpers/process-tree.ts';

const monotonic = systemClock.monotonic;
const observerOf = (rootPid: number) => createLinuxObserver({ rootPid, useCgroup: false, monotonic });
const guardsFor = (rootPid: number) => ({ selfPid: process.pid, parentPid: process.ppid, rootPid });

/** A root shell whose child ignores SIGTERM and has an ordinary `sleep` child. */
async function ignoringTree(t: Parameters<typeof startTree>[0]) {
  const tree = startTree(t, '/bin/sh', ['-c', '"$0" "$1" & wait', process.execPath, nodeFixture('ignores-sigterm')]);
  const [parentPid, childPid] = (await tree.nextLine()).split(' ').map(Number) as [number, number];
  const observer = observerOf(tree.pid);
  const { processes } = observer.observe();
  return {
    tree,
    observer,
    processes,
    parent: processes.find((p) => p.pid === parentPid)!,
    child: processes.find((p) => p.pid === childPid)!,
  };
}

test('terminates a subtree: SIGTERM, the grace, then SIGKILL for what ignored it; the root is untouched', async (t) => {
  const { tree, observer, parent, child } = await ignoringTree(t);
  const exited = once(tree.child, 'exit');
  const host = measureHostDelay();
  const started = monotonic();
  const result = await terminateSubtree(
    { target: parent, subtree: [parent, child] },
    { graceMs: 600, observer, guards: guardsFor(tree.pid), monotonic },
  );
  const elapsed = monotonic() - started;
  assert.deepEqual(result.refused, null);
  assert.deepEqual(result.killed.sort(), [parent.pid, child.pid].sort());
  assert.deepEqual(result.survived, []);
  assert.ok(
    elapsed >= 600 && elapsed < 600 + host.scaled(1_000),
    `took ${elapsed} ms for a 600 ms grace (host ${host.stretch().toFixed(1)}× slower than idle)`,
  );
  assert.ok(!isSameProcessAlive(parent.pid, parent.startTime) && !isSameProcessAlive(child.pid, child.startTime));
  assert.deepEqual(await exited, [0, null], 'the root shell saw its child end and exited normally, unsignalled');
});

test('resolves as soon as the subtree is gone', async (t) => {
  const tree = startTree(t, shellFixture('session-grandchild.sh'), []);
  const grandchild = Number(await tree.nextLine());
  const observer = observerOf(tree.pid);
  const sleep = observer.observe().processes.find((p) => p.pid === grandchild)!;
  const host = measureHostDelay();
  const started = monotonic();
  const result = await terminateSubtree(
    { target: sleep, subtree: [sleep] },
    { graceMs: 5_000, observer, guards: guardsFor(tree.pid), monotonic },
  );
  assert.deepEqual(result.killed, [grandchild]);
  assert.ok(monotonic() - started < host.scaled(1_000));
});

test('refuses the root, a stale identity and a process outside the tree, signalling nothing', async (t) => {
  const { tree, observer, parent } = await ignoringTree(t);
  const root = observer.known().find((p) => p.pid === tree.pid)!;
  const outsider = startTree(t, 'sleep', ['600']);
  const outsiderInfo = observerOf(outsider.pid).observe().processes[0]!;
  const cases: Array<[string, { pid: number; startTime: number }, string]> = [
    ['the root', root, 'supervised root'],
    ['a stale start time', { pid: parent.pid, startTime: parent.startTime - 1 }, 'reused'],
    ['an unowned process', outsiderInfo, 'no longer part'],
  ];
  for (const [what, target, reason] of cases) {
    const result = await terminateSubtree(
      { target, subtree: [] },
      { graceMs: 100, observer, guards: guardsFor(tree.pid), monotonic },
    );
    assert.ok(result.refused?.includes(reason), `${what}: ${result.refused}`);
    assert.deepEqual(result.killed, [], what);
  }
  assert.ok(
    isSameProcessAlive(root.pid, root.startTime) && isSameProcessAlive(outsiderInfo.pid, outsiderInfo.startTime),
  );
});

test('PID reuse for real: a pid taken by an unrelated process is never signalled', async (t) => {
  const run = await runProgram('unshare', [
    '--pid',
    '--fork',
    '--mount-proc',
    process.execPath,
    nodeFixture('pid-reuse'),
  ]);
  if (run.code !== 0 && /unshare:/.test(run.stderr)) {
    const reason = `unshare is not permitted here: ${run.stderr.trim()}`;
    if (process.env.DEADMAN_REQUIRE_SYSTEMD === '1')
      assert.fail(`${reason} (DEADMAN_REQUIRE_SYSTEMD=1 forbids skipping)`);
    console.log(`# skipped: ${reason}`);
    t.skip(reason);
    return;
  }
  assert.equal(run.code, 0, run.stderr);
  const [before, grace] = run.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  assert.equal(before.reusedPid, true, "the unrelated process got the dead target's pid");
  assert.equal(before.unrelatedAlive, true);
  assert.match(before.result.refused, /reused by another process/);
  assert.equal(grace.reusedPid, true, 'the unrelated process got the pid of the child that died of SIGTERM');
  assert.equal(grace.unrelatedAlive, true, 'SIGKILL skipped the reused pid');
  assert.equal(grace.parentAlive, false, 'the TERM-ignoring parent got SIGKILL');
  assert.deepEqual(grace.result.killed.sort(), [grace.parentPid, grace.childPid].sort());
  assert.deepEqual(grace.result.survived, []);
});

test('stopping the run leaves nothing: escaped, setsid and TERM-ignoring descendants included', async (t) => {
  const script = `"$0" "$1" & "$2" & "$3" 1 & wait`;
  const tree = startTree(t, '/bin/sh', [
    '-c',
    script,
    process.execPath,
    nodeFixture('ignores-sigterm'),
    shellFixture('session-grandchild.sh'),
    shellFixture('double-fork.sh'),
  ]);
  const lines = await Promise.all([tree.nextLine(), tree.nextLine(), tree.nextLine()]);
  const printed = lines.flatMap((line) => line.split(' ').map(Number));
  for (const pid of printed) tree.adopt(pid);
  const observer = observerOf(tree.pid);
  const seen = observer.observe().processes;
  assert.ok(
    printed.every((pid) => seen.some((p) => p.pid === pid)),
    'all found while the double fork lingers',
  );
  const doubleForking = (p: { pid: number; cmdline: string[] }) =>
    p.pid !== tree.pid && p.cmdline.some((arg) => arg.endsWith('double-fork.sh'));
  await waitFor(
    () => !observer.observe().processes.some(doubleForking),
    5_000,
    'the double fork to reparent its grandchild',
  );
  const host = measureHostDelay();
  const started = monotonic();
  const result = await stopOwnedTree({
    observer,
    rootPid: tree.pid,
    signal: 'SIGTERM',
    graceMs: 800,
    guards: guardsFor(tree.pid),
    monotonic,
  });
  const elapsed = monotonic() - started;
  assert.ok(
    seen.every((p) => !isSameProcessAlive(p.pid, p.startTime)),
    'every process of the tree is gone',
  );
  assert.deepEqual(result.survived, []);
  for (const pid of printed)
    assert.ok(result.killed.includes(pid) || result.exitedInGrace.includes(pid), `pid ${pid} accounted for`);
  assert.ok(result.exitedInGrace.includes(tree.pid), 'the root group heard SIGTERM');
  assert.ok(
    elapsed >= 800 && elapsed < 800 + host.scaled(1_000),
    `stop took ${elapsed} ms for an 800 ms grace (host ${host.stretch().toFixed(1)}× slower than idle)`,
  );
});

test('a stop resolves early when the tree exits, and a second signal cuts the grace short', async (t) => {
  const quick = startTree(t, 'sleep', ['600']);
  const host = measureHostDelay();
  let started = monotonic();
  const quickResult = await stopOwnedTree({
    observer: observerOf(quick.pid),
    rootPid: quick.pid,
    signal: 'SIGTERM',
    graceMs: 5_000,
    guards: guardsFor(quick.pid),
    monotonic,
  });
  assert.ok(monotonic() - started < host.scaled(1_000));
  assert.deepEqual(quickResult.exitedInGrace, [quick.pid]);

  const { tree, observer, parent } = await ignoringTree(t);
  const abort = new AbortController();
  setTimeout(() => abort.abort(), 200);
  started = monotonic();
  const result = await stopOwnedTree({
    observer,
    rootPid: tree.pid,
    signal: 'SIGTERM',
    graceMs: 10_000,
    abort: abort.signal,
    guards: guardsFor(tree.pid),
    monotonic,
  });
  assert.ok(monotonic() - started < host.scaled(1_500), 'SIGKILL right after the abort');
  assert.ok(result.killed.includes(parent.pid));
  assert.deepEqual(result.survived, []);
});

test('a tree already gone when the stop comes costs one look, not a wait and a SIGKILL sweep', async () => {
  // The usual end of a run: the work exited with its children. Each look at a real run is a pass over /proc.
  const gone = spawnSync('true').pid!;
  const observer = observerOf(gone);
  let looks = 0;
  const counting = new Proxy(observer, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (key === 'observe') return (sweep?: boolean) => (looks++, observer.observe(sweep));
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  const result = await stopOwnedTree({
    observer: counting,
    rootPid: gone,
    signal: 'SIGTERM',
    graceMs: 5_000,
    guards: guardsFor(gone),
    monotonic,
  });
  assert.deepEqual(result, { exitedInGrace: [], killed: [], survived: [] });
  assert.equal(looks, 1);
});

const fakeAgent = new URL('../../../lib/demo/fake-agent.js', import.meta.url).pathname;
const SEED = `python3 -c 'import subprocess; raise SystemExit(subprocess.Popen(["sleep","600"]).wait())'`;

test('the seed scenario: the hung python/sleep subtree is found and killed, the agent carries on (also below `timeout`)', async (t) => {
  const HUNG_TIMEOUT_MS = 1_500;
  const POLL_MS = 200;
  for (const wrapper of [[], ['timeout', '120']]) {
    const argv = [...wrapper, process.execPath, fakeAgent, 'codex', 'exec', '--json', 'fix the tests'];
    const agent = startTree(t, argv[0]!, argv.slice(1), {
      env: { ...process.env, FAKE_AGENT_SCENARIO: 'hang-tool', FAKE_AGENT_TOOL: SEED },
    });
    const observer = observerOf(agent.pid);
    const events = [await agent.nextLine(), await agent.nextLine(), await agent.nextLine()].map((line) =>
      JSON.parse(line),
    );
    assert.deepEqual(
      events.map((e) => e.type),
      ['thread.started', 'turn.started', 'item.started'],
    );
    const toolStartedAt = monotonic();
    const host = measureHostDelay();
    let progress = emptyProgress;
    let observation = observer.observe();
    const finding = await waitFor(
      () => {
        observation = observer.observe();
        progress = updateProgress(progress, observation, activityFloors(DEFAULT_CONFIG.activity));
        return findHungSubtree(observation, progress, {
          hungTimeoutMs: HUNG_TIMEOUT_MS,
          lastOutputAt: toolStartedAt,
          baseline: new Set(),
          ignore: [],
          openTools: [
            {
              toolId: events[2].item.id,
              startedAt: toolStartedAt,
              windowFrom: toolStartedAt,
              command: events[2].item.command,
            },
          ],
          firstToolAt: toolStartedAt,
          requireOpenTool: true,
        });
      },
      10_000,
      'the hung finding',
      POLL_MS,
    );
    // Idle from the sleep's birth (python only waits for it then): counted from the tool's
    // event, a loaded host's slow python start-up, which is work, would count as lateness.
    const sleepBornAt = bornAt(
      finding.subtree.find((p) => p.comm === 'sleep')!,
      observation,
    );
    const latency = monotonic() - Math.max(toolStartedAt, sleepBornAt) - HUNG_TIMEOUT_MS;
    assert.ok(
      latency < host.scaled(POLL_MS + 1_000),
      `found ${latency} ms after hung_timeout (host ${host.stretch().toFixed(1)}× slower than idle)`,
    );
    assert.match(
      finding.target.cmdline.join(' '),
      /-c import subprocess/,
      `${wrapper.join(' ')}: the python3 session leader`,
    );
    assert.equal(finding.target.sid, finding.target.pid);
    assert.equal(finding.toolId, 'item_1');
    const sleep = finding.subtree.find((p) => p.cmdline.join(' ') === 'sleep 600');
    assert.ok(sleep, 'the sleep is in the subtree');
    assert.ok(
      finding.subtree.every((p) => p.pid !== agent.pid && !p.cmdline.some((arg) => arg.endsWith('fake-agent.js'))),
      'the agent is not in it',
    );

    const exited = once(agent.child, 'exit');
    const result = await terminateSubtree(finding, {
      graceMs: 1_000,
      observer,
      guards: guardsFor(agent.pid),
      monotonic,
    });
    assert.deepEqual(result.killed.sort(), finding.subtree.map((p) => p.pid).sort());
    const completed = JSON.parse(await agent.nextLine());
    assert.equal(completed.type, 'item.completed');
    assert.notEqual(completed.item.exit_code, 0);
    let last = JSON.parse(await agent.nextLine());
    while (last.type !== 'turn.completed') last = JSON.parse(await agent.nextLine());
    assert.deepEqual(await exited, [0, null], 'the agent survived and exited 0');
  }
});
