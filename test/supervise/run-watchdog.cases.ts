import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runPass } from '../../lib/supervise/run/supervised-pass.ts';
import type { Config } from '../../lib/core/config/config.ts';
import type { TerminateTarget } from '../../lib/supervise/ports.ts';
import { fakeRun, proc, ROOT_PID, settle, testConfig, tracedMachine } from './fakes.ts';

/**
 * What the product promises systemd, under a fake clock: WATCHDOG=1 goes out every
 * WATCHDOG_USEC/2 while the run is healthy, stops at a stall (and asks for the restart), stops
 * while the loop itself is overdue, and resumes once the recovery that held it up is over.
 * The ping timer, the poll and the stream waits all run on the test's clock: no sleep.
 */

/** WATCHDOG_USEC of 4 s: a ping every 2 s. */
const WATCHDOG_USEC = 4_000_000;

function start(config: Partial<Config>, onStall: 'withhold' | 'exit' = 'withhold') {
  const run = fakeRun({ watchdogUsec: WATCHDOG_USEC });
  const machine = tracedMachine();
  const plan = {
    argv: ['agent'],
    cwd: '/',
    env: {},
    runTag: '0'.repeat(32),
    config: testConfig(config),
    onStall,
    watchdogUsec: WATCHDOG_USEC,
  };
  const pings = () => run.notes.filter((note) => note === 'WATCHDOG=1').length;
  /** Pings sent while the clock moves on by `ms`. */
  const pingsDuring = async (ms: number) => {
    const before = pings();
    await run.elapse(ms);
    return pings() - before;
  };
  /** Starts the run; resolves once its timers are set (the spawn is awaited first), with the run's end. */
  const begin = async () => {
    const result = runPass(plan, run.ports, machine);
    await settle();
    return { result };
  };
  return { run, machine, pingsDuring, start: begin };
}

test('WATCHDOG=1 every WATCHDOG_USEC/2 while healthy; none once the run stalls, and WATCHDOG=trigger asks systemd for the restart', async () => {
  const { run, machine, pingsDuring, start: begin } = start({ inactivity: 60_000 });
  const { result } = await begin();
  assert.equal(await pingsDuring(30_000), 15, 'one ping every 2 s');
  assert.equal(machine.state, 'running');
  await run.elapse(31_000);
  assert.equal(machine.state, 'stalled');
  assert.equal(machine.stallAction, 'withhold');
  assert.ok(run.notes.includes('WATCHDOG=trigger'));
  assert.equal(await pingsDuring(30_000), 0, 'withheld from the stall on');
  run.child.exit(null, 'SIGABRT');
  await result;
});

test('a tick overdue (a kill that hangs) stops the pings; they resume once the recovery is over', async () => {
  const { run, machine, pingsDuring, start: begin } = start({ auto_recover: true, inactivity: 0 });
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const makeTree = run.ports.makeTree;
  run.ports.makeTree = (rootPid, runTag) => {
    const tree = makeTree(rootPid, runTag);
    return { ...tree, terminate: async (target: TerminateTarget) => held.then(() => tree.terminate(target)) };
  };
  run.tree.processes.push(proc(200, ROOT_PID, { cmdline: ['sleep', 'forever'] }));
  const { result } = await begin();
  assert.equal(await pingsDuring(10_000), 5, 'healthy until the tool is found hung');
  const config = testConfig({ auto_recover: true, inactivity: 0 });
  const tickBudget = 3 * config.poll + config.kill_grace + config.diagnose.timeout + 10_000;
  // The hung finding comes at 10-11 s; its kill hangs from then on. Within the budget the pings go on.
  const withinBudget = await pingsDuring(tickBudget);
  assert.ok(withinBudget > 0, 'a tick within its budget is no fault');
  assert.equal(await pingsDuring(20_000), 0, 'the loop is overdue: no ping');
  release();
  run.child.print('tool gone; carrying on\n');
  await run.elapse(1_000);
  assert.ok((await pingsDuring(10_000)) >= 4, 'the pings resume once the recovery ended');
  assert.equal(machine.state, 'running');
  run.child.exit(0);
  assert.equal((await result).outcome, 'completed');
});

test('no ping before READY=1, however healthy the run: before it systemd runs no watchdog for us', async () => {
  const { run, pingsDuring, start: begin } = start({ ready_pattern: 'listening', ready_timeout: 600_000 });
  const { result } = await begin();
  assert.equal(await pingsDuring(10_000), 0);
  run.child.print('listening on 8080\n');
  await run.elapse(1);
  assert.equal(await pingsDuring(10_000), 5);
  run.child.exit(0);
  await result;
});

test("the pass's end (an evidence check, a git still running for the last tool end) is fed like the work: the pings stop only once the pass is over", async () => {
  const { run, pingsDuring, start: begin } = start({ inactivity: 60_000 });
  let release = () => {};
  // Issue 38: the pings stopped with the pass's cleanups, before the end's own waits.
  run.ports.evidence.checkOnExit = () => new Promise((resolve) => (release = () => resolve(null)));
  const { result } = await begin();
  assert.equal(await pingsDuring(4_000), 2);
  run.child.exit(0);
  await run.elapse(3_000);
  assert.equal(await pingsDuring(10_000), 5, 'the end waits on: pinged every 2 s');
  release();
  assert.equal((await result).outcome, 'completed');
  assert.equal(await pingsDuring(10_000), 0, 'the pass is over: its pings too');
});
