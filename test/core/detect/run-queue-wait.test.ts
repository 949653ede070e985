import { test } from 'node:test';
import assert from 'node:assert/strict';
import { processKey, type Observation, type ProcessInfo } from '../../../lib/core/process/process-info.ts';
import { emptyProgress, updateProgress } from '../../../lib/core/detect/process-progress.ts';
import { activityFloors, emptyActivity, updateActivity } from '../../../lib/core/detect/tree-activity.ts';
import { DEFAULT_CONFIG } from '../../../lib/core/config/defaults.ts';

// Run-queue wait (schedstat's second field) counts toward the activity floors like CPU time:
// the default floors (500 ms per 10 s: 50 ms a poll), one poll a second, no clock.
const FLOORS = activityFloors(DEFAULT_CONFIG.activity);
const proc = (p: Partial<ProcessInfo> & Pick<ProcessInfo, 'pid' | 'ppid'>): ProcessInfo => ({
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

const agent = proc({ pid: 100, ppid: 1 });
// A CPU-bound tool niced under busy loops: 1 tick (10 ms) of CPU a second, 990 ms waiting for a CPU over 8 runs.
const starved = (t: number) =>
  proc({ pid: 200, ppid: 100, state: 'R', cpuTicks: t / 1000, waitMs: (t / 1000) * 990, runs: (t / 1000) * 8 });
// A sleeping tool: no CPU, and the wait it had at start-up never grows.
const sleeping = () => proc({ pid: 300, ppid: 100, waitMs: 40, runs: 3 });

function observe(
  until: number,
  at: (t: number) => ProcessInfo[],
  cgroupCpuMs: (t: number) => number | null = () => null,
) {
  let activity = emptyActivity;
  let progress = emptyProgress;
  let last: Observation = { at: 0, rootPid: 100, processes: [] };
  const working: boolean[] = [];
  for (let t = 0; t <= until; t += 1_000) {
    last = { at: t, rootPid: 100, processes: at(t), cgroupCpuMs: cgroupCpuMs(t) };
    activity = updateActivity(activity, last, 0, FLOORS);
    progress = updateProgress(progress, last, FLOORS);
    working.push(activity.working);
  }
  // What the hung detector judges: how long each process's subtree has been under the floors.
  const idleMs = (pid: number) => {
    const p = last.processes.find((q) => q.pid === pid)!;
    return last.at - progress.processes.get(processKey(p))!.lastProgressAt;
  };
  return { working, idleMs };
}

test('a tool starved of CPU but waiting for one is working: neither the tree nor the tool is idle', () => {
  const { working, idleMs } = observe(10_000, (t) => [agent, starved(t)]);
  assert.deepEqual(working.slice(1), Array(10).fill(true));
  assert.equal(idleMs(200), 0);
});

test('without its wait, the same starved tool is under the floor (what a host without schedstat sees)', () => {
  const { working, idleMs } = observe(10_000, (t) => [agent, { ...starved(t), waitMs: undefined }]);
  assert.deepEqual(working.filter(Boolean), []);
  assert.equal(idleMs(200), 10_000);
});

test('a sleeping tool beside a starved one stays idle: its wait does not grow', () => {
  const { idleMs } = observe(10_000, (t) => [agent, starved(t), sleeping()]);
  assert.equal(idleMs(300), 10_000);
  assert.equal(idleMs(200), 0);
  assert.equal(idleMs(100), 0, 'the agent above both works through the starved one');
});

test('wake-ups are not work however long a busy host makes each wait: a `sleep 1` loop, an inotify watch in an exec storm', () => {
  const loop = (t: number) => [
    agent,
    proc({ pid: 200, ppid: 100, reapedCpuTicks: t / 2000, waitMs: (t / 1000) * 30, runs: (t / 1000) * 3 }),
  ];
  assert.deepEqual(observe(10_000, loop).working.filter(Boolean), []);
  // Measured at load 16 on 2 cores beside `while :; do /bin/true; ls /proc; done`: 117 runs and 175 ms of wait a second.
  const watch = (t: number) => [
    agent,
    proc({ pid: 200, ppid: 100, cpuTicks: t / 1000, waitMs: (t / 1000) * 175, runs: (t / 1000) * 117 }),
  ];
  assert.deepEqual(observe(10_000, watch).working.filter(Boolean), []);
});

test("with the cgroup's CPU, the processes' wait is added to it (cpu.stat has none)", () => {
  const { working } = observe(
    10_000,
    (t) => [agent, { ...starved(t), cpuTicks: 0 }],
    (t) => t / 100,
  );
  assert.deepEqual(working.slice(1), Array(10).fill(true));
  const idle = observe(
    10_000,
    () => [agent, sleeping()],
    (t) => t / 100,
  );
  assert.deepEqual(idle.working.filter(Boolean), []);
});

test('a wait first read at a later poll counts from zero, once', () => {
  // First seen without it (the observer read no schedstat yet), then 2 s of wait at once.
  const { working } = observe(3_000, (t) => [
    agent,
    proc({ pid: 200, ppid: 100, ...(t >= 1_000 ? { waitMs: 2_000, runs: 5 } : {}) }),
  ]);
  assert.equal(working[1], true);
  assert.equal(working[3], false, 'the start-up wait counted once, at the poll that read it');
});
