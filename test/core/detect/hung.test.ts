import { test } from 'node:test';
import assert from 'node:assert/strict';
import { processKey, type Observation, type ProcessInfo } from '../../../lib/core/process/process-info.ts';
import { findHungSubtree, type HungOptions } from '../../../lib/core/detect/hung.ts';
import { emptyProgress, updateProgress } from '../../../lib/core/detect/process-progress.ts';
import { activityFloors } from '../../../lib/core/detect/tree-activity.ts';
import { DEFAULT_CONFIG } from '../../../lib/core/config/defaults.ts';

// Synthetic trees, one poll a second, hung_timeout 3 s, the default activity floors (500 ms of
// CPU or 512 KiB of I/O per 10 s: 50 ms or ~52 KB per poll): no clock, no sleeping.
const FLOORS = activityFloors(DEFAULT_CONFIG.activity);
type Proc = Partial<ProcessInfo> & Pick<ProcessInfo, 'pid' | 'ppid'>;
const proc = (p: Proc): ProcessInfo => ({
  pgid: p.pid,
  sid: p.pid,
  startTime: p.pid * 10,
  state: 'S',
  comm: 'x',
  cmdline: [`proc-${p.pid}`],
  cpuTicks: 0,
  ioBytes: 0,
  listening: false,
  ...p,
});

// The seed scenario: agent (root 100) → python3 (tool session leader 200) → sleep 600 (201).
const agent = proc({ pid: 100, ppid: 1, cmdline: ['node', 'fake-agent.js'] });
const python = proc({ pid: 200, ppid: 100, cmdline: ['python3', '-c', 'import subprocess…'] });
const sleep = proc({ pid: 201, ppid: 200, pgid: 200, sid: 200, cmdline: ['sleep', '600'] });

const TOOL = { toolId: 'item_1', startedAt: 0, windowFrom: 0, command: null };
const options = (overrides: Partial<HungOptions> = {}): HungOptions => ({
  hungTimeoutMs: 3_000,
  lastOutputAt: 0,
  baseline: new Set(),
  ignore: [],
  openTools: [TOOL],
  firstToolAt: 0,
  requireOpenTool: true,
  ...overrides,
});

/** Folds one observation per second; `at(t)` gives the processes seen at t ms. */
function detect(until: number, at: (t: number) => ProcessInfo[], opts = options(), rootPid = 100) {
  let progress = emptyProgress;
  let last: Observation = { at: 0, rootPid, processes: [] };
  for (let t = 0; t <= until; t += 1_000) {
    last = { at: t, rootPid, processes: at(t) };
    progress = updateProgress(progress, last, FLOORS);
  }
  return findHungSubtree(last, progress, opts);
}

const seed = () => [agent, python, sleep];

test('finds the idle tool command: its session leader, with the subtree, under the open call', () => {
  const finding = detect(5_000, seed);
  assert.ok(finding);
  assert.equal(finding.target.pid, 200);
  assert.deepEqual(
    finding.subtree.map((p) => p.pid),
    [200, 201],
  );
  assert.equal(finding.idleMs, 5_000);
  assert.equal(finding.toolId, 'item_1');
  assert.match(
    finding.reason,
    /python3 -c .* \(pid 200, session leader\) and 1 descendant idle for 5s: .*open tool call item_1 since 5s/,
  );
});

test('nothing is hung before hung_timeout, or while the root prints', () => {
  assert.equal(detect(2_000, seed), null);
  assert.equal(detect(5_000, seed, options({ lastOutputAt: 3_000 })), null);
  assert.ok(detect(6_000, seed, options({ lastOutputAt: 3_000 })));
});

test('work above the floors anywhere in the subtree keeps it alive', () => {
  const cases: Array<[string, (t: number) => ProcessInfo[]]> = [
    ['CPU-busy leaf', (t) => [agent, python, { ...sleep, cpuTicks: t / 10 }]],
    ['CPU-busy session leader', (t) => [agent, { ...python, cpuTicks: t / 10 }, sleep]],
    ['I/O from a leaf at 100 KB/s (a file writer)', (t) => [agent, python, { ...sleep, ioBytes: t * 100 }]],
    [
      'a busy sibling of the idle leaf',
      (t) => [...seed(), proc({ pid: 202, ppid: 200, pgid: 200, sid: 200, cpuTicks: t })],
    ],
    // `make` running short compilers: each is gone by the next poll, its CPU reaped into the leader.
    ['CPU of children reaped between polls', (t) => [agent, { ...python, reapedCpuTicks: t / 20 }, sleep]],
    [
      'four leaves each under the floor, together above it',
      (t) => [
        agent,
        python,
        ...[202, 203, 204, 205].map((pid) => proc({ pid, ppid: 200, pgid: 200, sid: 200, cpuTicks: (t / 1000) * 2 })),
      ],
    ],
  ];
  for (const [what, at] of cases) assert.equal(detect(5_000, at), null, what);
});

test('ticks under the floors, and processes starting and ending, are not work', () => {
  const cases: Array<[string, (t: number) => ProcessInfo[]]> = [
    ['a leaf using 1 tick (10 ms) of CPU a second', (t) => [agent, python, { ...sleep, cpuTicks: t / 1000 }]],
    ['an inotify watch reading 40 bytes a second', (t) => [agent, python, { ...sleep, ioBytes: (t / 1000) * 40 }]],
    [
      'a `sleep 1` polling loop: a new child every second',
      (t) => [agent, python, proc({ pid: 1000 + t / 1000, ppid: 200, pgid: 200, sid: 200 })],
    ],
    [
      'a child ending at 4 s',
      (t) => (t < 4_000 ? [...seed(), proc({ pid: 202, ppid: 200, pgid: 200, sid: 200 })] : seed()),
    ],
    ['a child reparented away at 4 s', (t) => [agent, python, { ...sleep, ppid: t >= 4_000 ? 1 : 200 }]],
  ];
  for (const [what, at] of cases) assert.equal(detect(5_000, at)?.target.pid, 200, what);
});

test('idle time counts from the last poll above the floors', () => {
  // 200 ms of CPU in the step to 2 s, then nothing: idle for 3 s at 5 s, so hung at 5 s, not at 4 s.
  const burst = (t: number) => [agent, python, { ...sleep, cpuTicks: t >= 2_000 ? 20 : 0 }];
  assert.equal(detect(4_000, burst), null);
  assert.equal(detect(5_000, burst)?.idleMs, 3_000);
});

test('servers, baseline helpers and ignored commands are never targets', () => {
  const listening = () => [agent, python, { ...sleep, listening: true }];
  assert.equal(detect(10_000, listening), null, 'listening socket');
  assert.equal(detect(10_000, seed, options({ ignore: [/^sleep 600$/] })), null, 'ignore pattern on a member');
  assert.equal(detect(10_000, seed, options({ ignore: [/^python3 -c/] })), null, 'ignore pattern on the target');
  assert.ok(detect(10_000, seed, options({ ignore: [/^npm /] })), 'a non-matching pattern changes nothing');

  const helper = proc({ pid: 150, ppid: 100, cmdline: ['mcp-server'] });
  const withHelper = () => [agent, helper];
  const generic = { requireOpenTool: false, openTools: [] };
  assert.equal(
    detect(10_000, withHelper, options({ ...generic, baseline: new Set([processKey(helper)]) })),
    null,
    'baseline helper',
  );
  assert.equal(detect(10_000, withHelper, options(generic))?.target.pid, 150, 'the same helper outside the baseline');
});

test('an agent adapter needs an open tool call the target belongs to, by its command or its birth', () => {
  assert.equal(detect(10_000, seed, options({ openTools: [] })), null, 'no open call');
  const late = (command: string | null) =>
    options({ openTools: [{ toolId: 'item_9', startedAt: 1_500, windowFrom: 1_500, command }], firstToolAt: 1_500 });
  // Issue 32: never silent. What nothing proves is reported for a person, with why, never killed by deadman itself.
  const helper = detect(10_000, seed, late(null));
  assert.equal(
    helper?.toolId,
    null,
    "born 1.5 s before the first call, running no known command: not proven the call's",
  );
  assert.match(
    helper?.unproven ?? '',
    /nothing proves whose the idle process is — pid 200 \(python3 -c import subprocess…\): born before the run's first tool call/,
  );
  assert.equal(
    detect(10_000, seed, late('sleep 6000'))?.unproven?.includes('runs none of their commands'),
    true,
    'another command: unproven',
  );
  assert.equal(
    detect(10_000, seed, late('sleep 600'))?.toolId,
    'item_9',
    "its command, below the agent's direct child: the call spawned before its event",
  );
  assert.equal(
    detect(10_000, seed, late(`/bin/bash -lc 'python3 -c '\\''import subprocess…'\\'''`))?.toolId,
    'item_9',
    "its command inside Codex's shell wrapper",
  );
  const grandchild = () => [agent, proc({ pid: 150, ppid: 100, pgid: 100, sid: 100 }), { ...python, ppid: 150 }, sleep];
  assert.equal(
    detect(10_000, grandchild, late('sleep 600'))?.toolId,
    'item_9',
    "below a process of the agent's group (codex below its npm shim)",
  );
  const adopted = () => [agent, { ...python, ppid: 1 }, sleep];
  assert.match(
    detect(10_000, adopted, late('sleep 600'))?.unproven ?? '',
    /not started by the agent itself/,
    "not the agent's child: the command alone is no evidence",
  );
  const generic = detect(10_000, seed, options({ openTools: [], requireOpenTool: false }));
  assert.equal(generic?.target.pid, 200, 'generic adapter: no call needed');
  assert.equal(generic?.toolId, null);
});

test('a process started under the open call is preferred to an older idle one', () => {
  const leftover = proc({ pid: 150, ppid: 100, cmdline: ['sleep', '900'] });
  const at = (t: number) => (t >= 3_000 ? [agent, leftover, python, sleep] : [agent, leftover]);
  const opts = options({
    requireOpenTool: false,
    openTools: [{ toolId: 'item_2', startedAt: 3_000, windowFrom: 3_000, command: null }],
    firstToolAt: 3_000,
  });
  const finding = detect(8_000, at, opts);
  assert.equal(finding?.target.pid, 200, 'newer, less idle, but under the call');
  assert.equal(finding?.toolId, 'item_2');
  assert.match(
    detect(8_000, () => [agent, leftover], { ...opts, requireOpenTool: true })?.unproven ?? '',
    /pid 150 \(sleep 900\)/,
    'alone, the leftover is reported, unproven',
  );
});

test('the climb stops at the root and at the agent group, also below a wrapper root', () => {
  // timeout (root 90, group 90) → agent (100, group 90) → tool in the agent's session but its own group.
  const wrapper = proc({ pid: 90, ppid: 1, cmdline: ['timeout', '3600', 'codex'] });
  const wrappedAgent = { ...agent, ppid: 90, pgid: 90, sid: 90 };
  const tool = { ...python, sid: 90 };
  const toolChild = { ...sleep, sid: 90 };
  const finding = detect(5_000, () => [wrapper, wrappedAgent, tool, toolChild], options(), 90);
  assert.equal(finding?.target.pid, 200, 'climbed from sleep to its group leader, not into the agent group');
  // A helper in the agent's own group (codex's node wrapper, an MCP child) is never a target.
  const sameGroup = proc({ pid: 110, ppid: 100, pgid: 100, sid: 100 });
  assert.equal(
    detect(10_000, () => [agent, sameGroup], options({ requireOpenTool: false, openTools: [] })),
    null,
  );
  // The root alone, idle, is never a target.
  assert.equal(
    detect(10_000, () => [agent], options({ requireOpenTool: false, openTools: [] })),
    null,
  );
});

test('climbs within a session: a job-control shell gives the command its own group (Claude Code)', () => {
  const bash = proc({ pid: 200, ppid: 100, cmdline: ['/bin/bash', '-c', 'source snapshot && eval sleep 600'] });
  const jobSleep = proc({ pid: 201, ppid: 200, pgid: 201, sid: 200, cmdline: ['sleep', '600'] });
  const finding = detect(5_000, () => [agent, bash, jobSleep]);
  assert.equal(finding?.target.pid, 200);
  assert.deepEqual(
    finding?.subtree.map((p) => p.pid),
    [200, 201],
  );
});

test('a child that set up its own session below the tool is a separate command', () => {
  const daemon = proc({ pid: 202, ppid: 201, cmdline: ['sleep', '700'] });
  const finding = detect(5_000, (t) => [agent, python, { ...sleep, cpuTicks: t }, daemon]);
  assert.equal(finding?.target.pid, 202, 'the busy sleep protects its group, not the idle daemon below it');
});

test('survives garbage trees: cycles, missing parents, duplicate pids', () => {
  const a = proc({ pid: 300, ppid: 301, pgid: 300, sid: 300 });
  const b = proc({ pid: 301, ppid: 300, pgid: 300, sid: 300 });
  const orphan = proc({ pid: 400, ppid: 999 });
  const finding = detect(
    10_000,
    () => [agent, a, b, orphan, orphan],
    options({ requireOpenTool: false, openTools: [] }),
  );
  assert.equal(finding?.target.pid, 400, 'the cycle has no leaf; the orphan is its own command');
});

// Issue 25: a helper the agent started itself (a watcher, as its direct child in a session of its
// own) 1.5 s before its first tool call was killed as the hung tool, and the tool never was.
test('a helper born shortly before the first tool call is never the hung tool; the tool is', () => {
  const watcher = proc({ pid: 150, ppid: 100, cmdline: ['sleep', '601'] });
  const tool = { toolId: 'item_1', startedAt: 1_500, windowFrom: 1_500, command: `/bin/bash -lc 'sleep 600'` };
  // The watcher from 0 s; the tool's process from 1 s (Codex spawns it before printing its event) or from 2 s.
  for (const toolBornAt of [1_000, 2_000]) {
    const at = (t: number) => (t >= toolBornAt ? [agent, watcher, python, sleep] : [agent, watcher]);
    const finding = detect(10_000, at, options({ openTools: [tool], firstToolAt: 1_500 }));
    assert.equal(finding?.target.pid, 200, `the tool, not the older and idler watcher (tool born at ${toolBornAt} ms)`);
    assert.equal(finding?.toolId, 'item_1');
    const alone = detect(10_000, () => [agent, watcher], options({ openTools: [tool], firstToolAt: 1_500 }));
    assert.equal(alone?.toolId, null, 'the watcher alone is never the tool');
    assert.match(
      alone?.unproven ?? '',
      /born before the run's first tool call/,
      'but a person hears of it: the call is open and nothing else explains the wait',
    );
  }
});

test('a process nobody can place is left to a person: unproven, ranked after any proven tool', () => {
  // Born at 2 s, after the first call (item_1, done) and before the open one, an MCP call with no command.
  const stray = proc({ pid: 300, ppid: 100, cmdline: ['node', 'watcher.js'] });
  const at = (t: number) => (t >= 2_000 ? [agent, stray] : [agent]);
  const finding = detect(
    10_000,
    at,
    options({
      openTools: [{ toolId: 'item_5', startedAt: 4_000, windowFrom: 4_000, command: null }],
      firstToolAt: 1_000,
    }),
  );
  assert.equal(finding?.target.pid, 300);
  assert.equal(finding?.toolId, null);
  assert.match(
    finding?.unproven ?? '',
    /before open tool call item_5, outside its window, and their commands are unknown/,
  );
  assert.match(finding?.reason ?? '', /unproven/);
  const withTool = (t: number) => [...at(t), ...(t >= 5_000 ? [python, sleep] : [])];
  const both = detect(
    15_000,
    withTool,
    options({
      openTools: [{ toolId: 'item_5', startedAt: 4_000, windowFrom: 4_000, command: null }],
      firstToolAt: 1_000,
    }),
  );
  assert.equal(both?.target.pid, 200, 'the process born under the call comes first');
  assert.equal(both?.unproven, null);
});

// Issue 32: Codex spawns the tool before its item.started, and the event may name another command
// than the process's (a shim, a wrapper, another quoting): the window before the event proves it.
test("the only process the agent started in the window before a call's event is that call's", () => {
  const call = { toolId: 'item_3', startedAt: 2_500, windowFrom: 500, command: `/bin/bash -lc "make test"` };
  const at = (t: number) => (t >= 1_000 ? seed() : [agent]);
  const finding = detect(10_000, at, options({ openTools: [call], firstToolAt: 2_500 }));
  assert.equal(finding?.toolId, 'item_3');
  assert.equal(finding?.evidence, 'born in the window before its event');
  assert.equal(finding?.unproven, null);
  const before = detect(10_000, at, options({ openTools: [{ ...call, windowFrom: 1_500 }], firstToolAt: 2_500 }));
  assert.equal(before?.toolId, null, 'born before the window: unproven');
  assert.ok(before?.unproven);
  const watcher = proc({ pid: 150, ppid: 100, cmdline: ['node', 'mcp.js'] });
  const two = detect(
    10_000,
    (t) => (t >= 1_000 ? [...seed(), watcher] : [agent]),
    options({ openTools: [call], firstToolAt: 2_500 }),
  );
  assert.equal(two?.toolId, null, 'two processes in the window: neither is proven');
  assert.match(two?.unproven ?? '', /pid 150 .*one of 2 processes.*; pid 200 .*one of 2 processes/);
});

test('an idle helper beside a tool proven busy is no finding: the call is explained and working', () => {
  const watcher = proc({ pid: 150, ppid: 100, cmdline: ['node', 'mcp.js'] });
  const call = { toolId: 'item_1', startedAt: 1_500, windowFrom: 1_500, command: "python3 -c 'import subprocess…'" };
  const busy = (t: number) => [agent, watcher, { ...python, cpuTicks: t / 10 }, sleep];
  assert.equal(detect(10_000, busy, options({ openTools: [call], firstToolAt: 1_500 })), null);
});
