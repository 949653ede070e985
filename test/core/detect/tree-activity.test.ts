import { test } from 'node:test';
import assert from 'node:assert/strict';
import { treeShowsActivity } from '../../../lib/core/detect/tree-activity.ts';
import type { Observation, ProcessInfo } from '../../../lib/core/process/events.ts';

const proc = (pid: number, cpuTicks: number, ioBytes: number | null, startTime = 1): ProcessInfo => ({
  pid, ppid: 1, pgid: pid, sid: pid, startTime, state: 'S', comm: 'x', cmdline: ['x'], cpuTicks, ioBytes, listening: false,
});
const at = (processes: ProcessInfo[]): Observation => ({ at: 0, rootPid: 10, processes });

test('counts CPU, I/O and the set of processes as activity, nothing else', () => {
  const before = at([proc(10, 5, 100), proc(11, 0, 0)]);
  const cases: Array<[string, Observation, boolean]> = [
    ['nothing changed (a child blocked in read())', at([proc(10, 5, 100), proc(11, 0, 0)]), false],
    ['same processes listed in another order', at([proc(11, 0, 0), proc(10, 5, 100)]), false],
    ['CPU time moved', at([proc(10, 5, 100), proc(11, 1, 0)]), true],
    ['I/O bytes moved (a silent npm install)', at([proc(10, 5, 100), proc(11, 0, 4096)]), true],
    ['a process started', at([proc(10, 5, 100), proc(11, 0, 0), proc(12, 0, 0)]), true],
    ['a process ended', at([proc(10, 5, 100)]), true],
    ['a pid was reused by another process', at([proc(10, 5, 100), proc(11, 0, 0, 99)]), true],
    ['I/O became unreadable', at([proc(10, 5, 100), proc(11, 0, null)]), true],
  ];
  for (const [what, next, expected] of cases) assert.equal(treeShowsActivity(before, next), expected, what);
});
