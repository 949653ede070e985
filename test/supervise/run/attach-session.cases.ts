import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attachSession, type AttachPorts, type SessionFileLook } from '../../../lib/supervise/run/attach-session.ts';
import { StepRecords } from '../../../lib/supervise/records/step-records.ts';
import type { TerminateTarget } from '../../../lib/supervise/ports.ts';
import { proc, settle } from '../fakes.ts';

/**
 * The attach loop under fakes: a clock the test moves, a poll the test fires, a tree and a
 * session file the test edits. Start times are wall seconds here (startedAtWall multiplies).
 */

const ROOT = 100;
const WALL0 = 1_800_000_000_000;
const settings = {
  autoRecover: true,
  inactivityMs: 0,
  timeoutMs: 0,
  hungTimeoutMs: 2_000,
  readyTimeoutMs: 0,
  ignore: [],
  verifyWindowMs: 5_000,
  agent: () => true,
  activity: { windowMs: 10_000, cpuFloorMs: 500, ioFloorBytes: 512 * 1024 },
  exitGraceMs: 30_000,
  budget: { tokens: 0, costUsd: 0 },
};

function fakeAttach(session: SessionFileLook | null) {
  let now = 0;
  let poll: (() => void) | null = null;
  let stop: ((signal: NodeJS.Signals) => void) | null = null;
  const terminated: number[][] = [];
  // The agent (root), an MCP helper started at second 0, and a tool command (own session) with its child started at second 10.
  let processes = [
    proc(ROOT, 1, { startTime: 0 }),
    proc(150, ROOT, { startTime: 0 }),
    proc(200, ROOT, { startTime: 10 }),
    proc(201, 200, { startTime: 10, pgid: 200, sid: 200 }),
  ];
  const look = { current: session };
  const printed: string[] = [];
  const ports: AttachPorts = {
    clock: { monotonic: () => now, wall: () => WALL0 + 20_000 + now },
    logger: { log: () => {} },
    records: new StepRecords(
      null,
      () => now,
      () => now,
    ),
    tree: {
      // Start times in seconds since WALL0, which is 20 s before the attach (monotonic 0).
      observe: () => ({
        at: now,
        rootPid: ROOT,
        processes: processes.map((p) => ({ ...p })),
        startClock: { bootAt: -20_000, ticksPerSecond: 1 },
      }),
      terminate: async ({ subtree }: TerminateTarget) => {
        terminated.push(subtree.map((p) => p.pid));
        processes = processes.filter((p) => !subtree.some((s) => s.pid === p.pid));
        return { killed: subtree.map((p) => p.pid), survived: [], refused: null, skipped: [] };
      },
    },
    sessionFile: () => look.current,
    every: (_ms, run) => {
      poll = run;
      return () => (poll = null);
    },
    signals: (onSignal) => {
      stop = onSignal;
      return () => (stop = null);
    },
    print: (line) => void printed.push(line),
  };
  return {
    ports,
    terminated,
    printed,
    look,
    advance: async (ms: number) => {
      now += ms;
      poll?.();
      await settle();
    },
    stop: () => stop?.('SIGINT'),
    exitRoot: () => void (processes = []),
  };
}

test('a tool call open since second 9: the tool subtree is killed, the older helper and the agent never are, and the growing file resolves it', async () => {
  const run = fakeAttach({ size: 100, openTools: [{ toolId: 'call_1', startedAt: WALL0 + 9_000 }] });
  const summary = attachSession({ rootPid: ROOT, rootStartedAt: WALL0, settings, pollMs: 250, once: false }, run.ports);
  await settle();
  assert.deepEqual(run.printed, [`monitoring 3 owned descendant(s) of pid ${ROOT}, baseline 1`]);
  for (let i = 0; i < 10; i += 1) await run.advance(250);
  assert.deepEqual(run.terminated, [[200, 201]]);
  run.look.current = { size: 180, openTools: [] };
  await run.advance(250);
  run.stop();
  const result = await summary;
  assert.deepEqual(result.incidents, ['HUNG_PROCESS → TERMINATE_DESCENDANT_PROCESS → RESOLVED']);
  assert.equal(result.ended, 'signal');
});

test('no open tool call in the session file: nothing is a target, however idle', async () => {
  const run = fakeAttach({ size: 100, openTools: [] });
  const summary = attachSession({ rootPid: ROOT, rootStartedAt: WALL0, settings, pollMs: 250, once: false }, run.ports);
  for (let i = 0; i < 20; i += 1) await run.advance(250);
  run.exitRoot();
  await run.advance(250);
  assert.deepEqual(await summary, { incidents: [], killed: [], ended: 'root-exited' });
  assert.deepEqual(run.terminated, []);
});

test('a tool call from before the agent started (an earlier process of the session, cut off) is not open: nothing is killed', async () => {
  const run = fakeAttach({ size: 100, openTools: [{ toolId: 'call_1', startedAt: WALL0 - 5_000 }] });
  const summary = attachSession({ rootPid: ROOT, rootStartedAt: WALL0, settings, pollMs: 250, once: false }, run.ports);
  for (let i = 0; i < 20; i += 1) await run.advance(250);
  run.stop();
  assert.deepEqual((await summary).killed, []);
  assert.deepEqual(run.terminated, []);
});

test("a tool call open since before the helper started: the helper counts as the tool's, the agent never does", async () => {
  const run = fakeAttach({ size: 100, openTools: [{ toolId: 'call_1', startedAt: WALL0 }] });
  const summary = attachSession({ rootPid: ROOT, rootStartedAt: WALL0, settings, pollMs: 250, once: false }, run.ports);
  for (let i = 0; i < 20; i += 1) await run.advance(250);
  run.stop();
  await summary;
  assert.ok(run.terminated.flat().includes(150));
  assert.ok(!run.terminated.flat().includes(ROOT));
});

test('--once: one look, the status line, no signal', async () => {
  const run = fakeAttach(null);
  const result = await attachSession(
    { rootPid: ROOT, rootStartedAt: WALL0, settings, pollMs: 250, once: true },
    run.ports,
  );
  assert.equal(result.ended, 'once');
  assert.match(run.printed[0]!, /monitoring 3 owned descendant\(s\) of pid 100, baseline 3/);
  assert.deepEqual(run.terminated, []);
});
