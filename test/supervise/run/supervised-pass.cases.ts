import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExitCode } from '../../../lib/exit-codes.ts';
import { runPass } from '../../../lib/supervise/run/supervised-pass.ts';
import type { Config } from '../../../lib/core/config/config.ts';
import { fakeRun, proc, ROOT_PID, settle, testConfig, tracedMachine } from '../fakes.ts';

/**
 * Whole runs through every state of the run machine, under fakes: no process, no timer, no
 * sleep. The clock moves only when a test says so, and each poll is fired by the test.
 */

function start(
  config: Partial<Config> = {},
  onStall: 'withhold' | 'exit' = 'exit',
  options: Parameters<typeof fakeRun>[0] = {},
) {
  const run = fakeRun(options);
  const machine = tracedMachine();
  const result = runPass(
    { argv: ['agent'], cwd: '/', env: {}, runTag: '0'.repeat(32), config: testConfig(config), onStall },
    run.ports,
    machine,
  );
  return { ...run, machine, result };
}

/** A tool command in its own session below the root, idle from its first poll. */
const HUNG_TOOL = proc(200, ROOT_PID, { cmdline: ['sleep', 'forever'] });

/** A run whose tool (pid 200) has sat idle past hung_timeout, polled once. */
async function startWithHungTool(config: Partial<Config>) {
  const run = start(config);
  run.tree.processes.push(HUNG_TOOL);
  await settle();
  run.advance(10_000);
  await run.poll();
  return run;
}

test('a plain run: starting → waiting-ready → running → finished, READY=1 at once, exit 0 completes', async () => {
  const run = start();
  await settle();
  assert.equal(run.machine.state, 'running');
  run.child.print('hello\n');
  run.child.exit(0);
  const result = await run.result;
  assert.deepEqual(run.machine.trace, [
    'starting -spawned-> waiting-ready',
    'waiting-ready -ready-> running',
    'running -child_exited-> finished',
  ]);
  assert.equal(result.exitCode, 0);
  assert.equal(result.outcome, 'completed');
  assert.equal(result.clean, true);
  assert.ok(run.notes.includes('READY=1'));
  assert.deepEqual(run.tree.stops, ['SIGTERM'], 'leftovers are stopped after the root exits');
});

test('a command that cannot start: starting → finished with its exit code', async () => {
  const run = start({}, 'exit', { spawnFails: true });
  const result = await run.result;
  assert.deepEqual(run.machine.trace, ['starting -spawn_failed-> finished']);
  assert.equal(result.exitCode, 127);
  assert.equal(result.outcome, 'spawn-failed');
});

test('with a ready pattern the run waits in waiting-ready and READY=1 goes out only on the line', async () => {
  const run = start({ ready_pattern: 'listening' });
  await settle();
  assert.equal(run.machine.state, 'waiting-ready');
  assert.ok(!run.notes.includes('READY=1'));
  run.child.print('starting up\nlistening on 8080\n');
  await settle();
  assert.equal(run.machine.state, 'running');
  assert.ok(run.notes.includes('READY=1'));
  run.child.exit(0);
  assert.equal((await run.result).outcome, 'completed');
});

test('NOT_READY: never ready within ready_timeout → stalled; before READY=1 the stall always exits, even when withhold is configured', async () => {
  const run = start({ ready_pattern: 'listening', ready_timeout: 5_000 }, 'withhold');
  await settle();
  run.advance(5_001);
  await run.poll();
  assert.equal(run.machine.state, 'stalled');
  assert.equal(run.machine.stallAction, 'exit');
  assert.deepEqual(run.tree.stops, ['SIGTERM']);
  assert.ok(!run.notes.includes('WATCHDOG=trigger'));
  run.child.exit(null, 'SIGTERM');
  const result = await run.result;
  assert.equal(result.exitCode, ExitCode.STALLED_RESTART);
  assert.equal(result.outcome, 'stalled');
  assert.deepEqual(
    run.records.moves.map((m) => `${m.kind} ${m.to}`),
    ['NOT_READY ESCALATED'],
  );
});

test('stall policy withhold: OUTPUT_INACTIVITY after READY=1 triggers the watchdog and leaves the tree running', async () => {
  const run = start({ inactivity: 30_000 }, 'withhold');
  await settle();
  run.advance(30_000);
  await run.poll();
  assert.deepEqual(run.machine.trace.at(-1), 'running -stall-> stalled');
  assert.equal(run.machine.stallAction, 'withhold');
  assert.ok(run.notes.includes('WATCHDOG=trigger'));
  assert.deepEqual(run.tree.stops, []);
  assert.ok(run.notes.some((n) => /^STATUS=STALLED · no output for 30s · withholding watchdog/.test(n)));
  run.child.exit(0);
  assert.equal((await run.result).exitCode, ExitCode.STALLED_RESTART);
});

test('stall policy exit: OUTPUT_INACTIVITY stops the tree and the run exits 75', async () => {
  const run = start({ inactivity: 30_000 }, 'exit');
  await settle();
  run.advance(30_000);
  await run.poll();
  assert.equal(run.machine.stallAction, 'exit');
  assert.deepEqual(run.tree.stops, ['SIGTERM']);
  assert.ok(run.notes.some((n) => /^STATUS=STALLED · .* · stopping the run \(exit 75\)/.test(n)));
  run.child.exit(null, 'SIGTERM');
  const result = await run.result;
  assert.equal(result.exitCode, ExitCode.STALLED_RESTART);
  assert.equal(result.outcome, 'stalled');
});

test('TIMEOUT always exits with its own code, whatever the configured stall policy', async () => {
  const run = start({ timeout: 60_000, inactivity: 0 }, 'withhold');
  await settle();
  run.child.print('busy\n');
  run.advance(60_000);
  await run.poll();
  assert.equal(run.machine.stallAction, 'exit');
  run.child.exit(null, 'SIGTERM');
  const result = await run.result;
  assert.equal(result.exitCode, ExitCode.TIMEOUT);
  assert.equal(result.outcome, 'timeout');
});

test('EVIDENCE_STALE: a claim dead beyond its grace stalls the run on the tick it triggers', async () => {
  const run = start();
  await settle();
  run.evidenceDead('evidence progress dead: file not updated for 10m');
  await settle();
  assert.equal(run.machine.state, 'stalled');
  assert.deepEqual(
    run.records.opened.map((i) => i.kind),
    ['EVIDENCE_STALE'],
  );
  run.child.exit(null, 'SIGTERM');
  assert.equal((await run.result).outcome, 'stalled');
});

test('HUNG_PROCESS with auto-recover: running → recovering → running; OPEN → RECOVERING → VERIFYING → RESOLVED once output resumes', async () => {
  const run = await startWithHungTool({ auto_recover: true, inactivity: 0 });
  assert.deepEqual(run.tree.terminated, [200]);
  assert.equal(run.machine.state, 'recovering');
  run.advance(500);
  run.child.print('tool failed; carrying on\n');
  await settle();
  await run.poll();
  assert.equal(run.machine.state, 'running');
  assert.deepEqual(
    run.records.moves.map((m) => m.to),
    ['RECOVERING', 'VERIFYING', 'RESOLVED'],
  );
  assert.deepEqual(run.machine.trace.slice(2), [
    'running -recovery_started-> recovering',
    'recovering -recovery_ended-> running',
  ]);
  run.child.exit(0);
  assert.equal((await run.result).outcome, 'completed');
});

test('the verification window: no output within verify_window is NOT_RESOLVED; two attempts, then ESCALATED and the stall policy', async () => {
  const run = await startWithHungTool({ auto_recover: true, inactivity: 0, verify_window: 5_000 });
  run.tree.processes.push(proc(201, ROOT_PID, { cmdline: ['sleep', 'again'] }));
  run.advance(4_999);
  await run.poll();
  assert.equal(run.records.opened[0]!.state, 'VERIFYING', 'still inside the window');
  run.advance(10_001);
  await run.poll();
  assert.deepEqual(run.tree.terminated, [200, 201], 'a second attempt on the fresh finding');
  run.advance(5_000);
  await run.poll();
  assert.deepEqual(
    run.records.moves.map((m) => m.to),
    ['RECOVERING', 'VERIFYING', 'RECOVERING', 'VERIFYING', 'ESCALATED'],
  );
  assert.equal(run.records.opened.length, 1, 'both attempts belong to one incident');
  assert.equal(run.machine.state, 'stalled');
  assert.deepEqual(run.tree.stops, ['SIGTERM']);
  run.child.exit(null, 'SIGTERM');
  assert.equal((await run.result).exitCode, ExitCode.STALLED_RESTART);
});

test('without auto-recover a hung subtree waits for approval, clears when it goes away, and another kind of incident can open beside it', async () => {
  const run = await startWithHungTool({ auto_recover: false, inactivity: 30_000 });
  assert.deepEqual(run.tree.terminated, []);
  assert.ok(run.notes.some((n) => n.startsWith('STATUS=AWAITING APPROVAL · hung: sleep forever (pid 200)')));
  run.advance(20_000);
  await run.poll();
  assert.deepEqual(
    run.records.opened.map((i) => `${i.kind} ${i.state}`),
    ['HUNG_PROCESS AWAITING_APPROVAL', 'OUTPUT_INACTIVITY ESCALATED'],
  );
  run.child.exit(null, 'SIGTERM');
  await run.result;

  const cleared = start({ auto_recover: false, inactivity: 0 });
  cleared.tree.processes.push(HUNG_TOOL);
  await settle();
  cleared.advance(10_000);
  await cleared.poll();
  cleared.tree.processes = cleared.tree.processes.filter((p) => p.pid !== 200);
  await cleared.poll();
  assert.deepEqual(
    cleared.records.moves.map((m) => m.to),
    ['AWAITING_APPROVAL', 'RESOLVED'],
  );
  cleared.child.exit(0);
  await cleared.result;
});

test('a stop signal: running → stopping; a second one during the stop grace kills the tree now; the run re-raises the first', async () => {
  const run = start();
  await settle();
  run.raise('SIGTERM');
  assert.equal(run.machine.state, 'stopping');
  assert.deepEqual(run.tree.stops, ['SIGTERM']);
  assert.ok(run.notes.includes('STOPPING=1'));
  assert.equal(run.tree.abort!.aborted, false);
  run.raise('SIGINT');
  assert.equal(run.tree.abort!.aborted, true, 'the grace is cut short');
  run.child.exit(null, 'SIGKILL');
  const result = await run.result;
  assert.deepEqual(run.machine.trace.slice(2), [
    'running -signal-> stopping',
    'stopping -signal-> stopping',
    'stopping -child_exited-> finished',
  ]);
  assert.equal(result.outcome, 'stopped');
  assert.equal(result.reraise, 'SIGTERM');
});

test('a stop signal while stalled still stops; exit 0 whose on_exit evidence fails is green but dead', async () => {
  const stalled = start({ inactivity: 30_000 }, 'withhold');
  await settle();
  stalled.advance(30_000);
  await stalled.poll();
  stalled.raise('SIGTERM');
  assert.deepEqual(stalled.machine.trace.slice(-2), ['running -stall-> stalled', 'stalled -signal-> stopping']);
  stalled.child.exit(null, 'SIGTERM');
  assert.equal((await stalled.result).outcome, 'stopped');

  const green = start({}, 'exit', { evidenceOnExit: 'build/out missing' });
  await settle();
  green.child.exit(0);
  const result = await green.result;
  assert.equal(result.exitCode, ExitCode.GREEN_BUT_DEAD);
  assert.deepEqual(
    green.records.moves.map((m) => `${m.kind} ${m.to}`),
    ['EVIDENCE_FAILED ESCALATED'],
  );
});
