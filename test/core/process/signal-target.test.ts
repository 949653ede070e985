import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSignalTarget, type SignalGuards } from '../../../lib/core/process/signal-target.ts';

const guards: SignalGuards = { selfPid: 500, parentPid: 400, rootPid: 600 };
const alive = (pid: number, startTime = 1000, state = 'S') => ({ pid, startTime, state });

test('refuses every pid that must never be signalled, and stale identities', () => {
  const cases: Array<
    [string, { pid: number; startTime: number }, ReturnType<typeof alive> | null, boolean, string | null]
  > = [
    ['a live owned descendant', { pid: 700, startTime: 1000 }, alive(700), true, null],
    ['pid 0 (own process group)', { pid: 0, startTime: 1000 }, alive(0), true, 'process group'],
    ['a negative pid (a group)', { pid: -700, startTime: 1000 }, alive(-700), true, 'process group'],
    ['pid 1', { pid: 1, startTime: 1000 }, alive(1), true, 'init'],
    ['deadman itself', { pid: 500, startTime: 1000 }, alive(500), true, 'deadman itself'],
    ["deadman's parent", { pid: 400, startTime: 1000 }, alive(400), true, "deadman's parent"],
    ['the supervised root', { pid: 600, startTime: 1000 }, alive(600), true, 'supervised root'],
    ['a vanished process', { pid: 700, startTime: 1000 }, null, true, 'has exited'],
    ['a reused pid', { pid: 700, startTime: 1000 }, alive(700, 2000), true, 'reused'],
    ['a zombie', { pid: 700, startTime: 1000 }, alive(700, 1000, 'Z'), true, 'zombie'],
    ['a process no longer owned', { pid: 700, startTime: 1000 }, alive(700), false, 'no longer part'],
    ['a read of another pid', { pid: 700, startTime: 1000 }, alive(701), true, 'has exited'],
  ];
  for (const [what, expected, current, owned, refusal] of cases) {
    const decision = checkSignalTarget(expected, current, owned, guards);
    if (refusal === null) assert.deepEqual(decision, { ok: true }, what);
    else assert.ok(!decision.ok && decision.reason.includes(refusal), `${what}: ${JSON.stringify(decision)}`);
  }
});

test('stopping the whole run may signal the root', () => {
  const decision = checkSignalTarget({ pid: 600, startTime: 1000 }, alive(600), true, { ...guards, rootPid: null });
  assert.deepEqual(decision, { ok: true });
});
