import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpuOfRunMs, parseProcStat, type ProcStat } from '../../../lib/core/process/proc-stat.ts';

const stat = (pid: number, cpuTicks: number, reapedCpuTicks: number): ProcStat => ({
  pid,
  comm: 'x',
  state: 'S',
  ppid: 1,
  pgid: pid,
  sid: pid,
  cpuTicks,
  reapedCpuTicks,
  startTime: 1,
});

test('parses utime+stime and cutime+cstime from a stat line whose name holds spaces and parentheses', () => {
  const line =
    '4242 (git (status) x) S 1 4242 4242 0 -1 4194304 100 0 0 0 7 3 11 9 20 0 1 0 5555 1000 10 1844 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0';
  const parsed = parseProcStat(line)!;
  assert.equal(parsed.comm, 'git (status) x');
  assert.equal(parsed.cpuTicks, 10);
  assert.equal(parsed.reapedCpuTicks, 20);
  assert.equal(parsed.startTime, 5555);
});

test("the run's cgroup CPU leaves out deadman's and every helper's own and reaped CPU", () => {
  // 3 s in the cgroup; deadman used 50 ticks and reaped 10; the git shell used 2 and reaped 100 (its gits).
  assert.equal(cpuOfRunMs(3000, [stat(1, 50, 10)]), 2400);
  assert.equal(cpuOfRunMs(3000, [stat(1, 50, 10), stat(2, 2, 100)]), 1380);
  // A git still running counts as the helper's too.
  assert.equal(cpuOfRunMs(3000, [stat(1, 50, 10), stat(2, 2, 100), stat(3, 30, 0)]), 1080);
});

test('a helper gone before its stat was read counts nothing, and the figure never goes below zero', () => {
  assert.equal(cpuOfRunMs(3000, [stat(1, 50, 10), null]), 2400);
  assert.equal(cpuOfRunMs(100, [stat(1, 50, 10)]), 0);
});
