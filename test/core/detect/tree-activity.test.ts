import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  emptyActivity,
  updateActivity,
  type ActivityFloors,
  type ActivityState,
} from '../../../lib/core/detect/tree-activity.ts';
import type { Observation, ProcessInfo } from '../../../lib/core/process/process-info.ts';

const FLOORS: ActivityFloors = { windowMs: 10_000, cpuFloorMs: 500, ioFloorBytes: 512 * 1024 };

interface Counters {
  cpuTicks?: number;
  reapedCpuTicks?: number;
  ioBytes?: number | null;
  startTime?: number;
}
const proc = (pid: number, c: Counters = {}): ProcessInfo => ({
  pid,
  ppid: 1,
  pgid: pid,
  sid: pid,
  startTime: c.startTime ?? 1,
  state: 'S',
  comm: 'x',
  cmdline: ['x'],
  cpuTicks: c.cpuTicks ?? 0,
  reapedCpuTicks: c.reapedCpuTicks ?? 0,
  ioBytes: c.ioBytes ?? 0,
  listening: false,
});

/** Polls once a second for `seconds`, each poll built by `at(second)`; returns the state after each. */
function run(
  seconds: number,
  at: (second: number) => { processes: ProcessInfo[]; pipeBytes?: number; cgroupCpuMs?: number | null },
): ActivityState[] {
  const states: ActivityState[] = [];
  let state = emptyActivity;
  for (let s = 0; s <= seconds; s++) {
    const { processes, pipeBytes = 0, cgroupCpuMs = null } = at(s);
    const observation: Observation = { at: s * 1000, rootPid: 10, processes, cgroupCpuMs };
    state = updateActivity(state, observation, pipeBytes, FLOORS);
    states.push(state);
  }
  return states;
}
const workingAt = (states: ActivityState[]) => states.map((s) => s.working);

test('an inotify watch reading 1.4 KB/s and 1 tick per 10 s is not working', () => {
  const states = run(30, (s) => ({ processes: [proc(10, { cpuTicks: Math.floor(s / 10), ioBytes: 1400 * s })] }));
  assert.deepEqual(workingAt(states).filter(Boolean), []);
});

test('a systemd-notify loop (~30 KB/s of library reads, 8 ms/s of reaped CPU) is not working', () => {
  const states = run(30, (s) => ({
    processes: [proc(10, { reapedCpuTicks: Math.floor(0.8 * s), ioBytes: 30_000 * s })],
  }));
  assert.deepEqual(workingAt(states).filter(Boolean), []);
});

test('a systemd-notify loop whose every exec a poll sees alive is still not working: a reaped child is not counted twice', () => {
  // Each second a new systemd-notify (pid 100 + s) is seen alive with 30 KB read and 8 ms of CPU;
  // by the next poll the shell (10) has reaped it, and its counters took in the child's totals.
  const states = run(30, (s) => ({
    processes: [
      proc(10, { reapedCpuTicks: Math.floor(0.8 * s), ioBytes: 30_000 * s }),
      { ...proc(100 + s, { startTime: 100 + s, cpuTicks: 1, ioBytes: 30_000 }), ppid: 10 },
    ],
  }));
  assert.deepEqual(workingAt(states).filter(Boolean), []);
});

test('processes starting and ending do not count by themselves', () => {
  const states = run(20, (s) => ({ processes: [proc(10), proc(100 + s, { startTime: 100 + s })] }));
  assert.deepEqual(workingAt(states).filter(Boolean), []);
});

test('a CPU-bound job and a 100 KB/s download count from their first polls', () => {
  const cpu = run(20, (s) => ({ processes: [proc(10), proc(11, { cpuTicks: 100 * s })] }));
  assert.deepEqual(workingAt(cpu).slice(1), Array(20).fill(true));
  const download = run(20, (s) => ({ processes: [proc(10), proc(11, { ioBytes: 100_000 * s })] }));
  assert.deepEqual(workingAt(download).slice(1), Array(20).fill(true));
});

test('CPU of children reaped between two polls is not lost', () => {
  const states = run(5, (s) => ({ processes: [proc(10, { reapedCpuTicks: 60 * s })] }));
  assert.equal(states.at(-1)!.working, true);
});

test('the bytes deadman read from the pipes are not I/O: a chatty writer is judged by its output, not here', () => {
  const states = run(20, (s) => ({ processes: [proc(10, { ioBytes: 200_000 * s })], pipeBytes: 200_000 * s }));
  assert.deepEqual(workingAt(states).filter(Boolean), []);
});

test("the cgroup's CPU wins over per-process times where there is one", () => {
  const busyExited = run(5, (s) => ({ processes: [proc(10)], cgroupCpuMs: 300 * s }));
  assert.equal(busyExited.at(-1)!.working, true, 'work of processes that already exited');
  const idle = run(5, (s) => ({ processes: [proc(10, { cpuTicks: 100 * s })], cgroupCpuMs: 1000 }));
  assert.equal(idle.at(-1)!.working, false);
});

test('a start-up burst counts at its poll only, not for the rest of the window', () => {
  const states = run(20, (s) => ({ processes: [proc(10, { ioBytes: s === 0 ? 0 : 1_700_000 + 1400 * s })] }));
  assert.deepEqual(workingAt(states), [false, true, ...Array(19).fill(false)]);
});

test('bursty work (600 KB every 3 s) counts at each burst', () => {
  const states = run(12, (s) => ({ processes: [proc(10, { ioBytes: 600_000 * Math.floor(s / 3) })] }));
  assert.deepEqual(
    workingAt(states)
      .map((w, s) => (w ? s : null))
      .filter((s) => s !== null),
    [3, 6, 9, 12],
  );
});
