import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lostRunEnd, type ServiceStop } from '../../../lib/core/status/lost-run-end.ts';
import { closedAsLost, runPresence } from '../../../lib/core/status/run-presence.ts';

const invocation = '0123456789abcdef0123456789abcdef';
const stop = (result: string, exit: ServiceStop['exit']): ServiceStop => ({ invocationId: invocation, result, exit });
const run = { outcome: null, invocation_id: invocation };

test("without systemd's word the cause stays unknown, or watchdog after a recorded stall", () => {
  assert.deepEqual(lostRunEnd(run, null), {
    outcome: 'lost',
    signal: 'unknown',
    reason: 'deadman ended without recording an exit (killed, crashed or the host went down)',
    lost: 1,
  });
  assert.deepEqual(lostRunEnd({ outcome: 'stalled' }, null), {
    outcome: 'stalled',
    signal: 'watchdog',
    reason: undefined,
    lost: 1,
  });
});

test("systemd's result names the cause when it says more than the signal; else the signal does", () => {
  const cases: Array<[ServiceStop, string | null, string]> = [
    [stop('signal', { code: 'killed', signal: 'KILL' }), 'SIGKILL', 'systemd says signal (SIGKILL)'],
    [stop('core-dump', { code: 'dumped', signal: 'SEGV' }), 'SIGSEGV', 'systemd says core-dump (SIGSEGV, core dumped)'],
    [stop('watchdog', { code: 'dumped', signal: 'ABRT' }), 'watchdog', 'systemd says watchdog (SIGABRT, core dumped)'],
    [stop('oom-kill', { code: 'killed', signal: 'KILL' }), 'oom-kill', 'systemd says oom-kill (SIGKILL)'],
    [stop('timeout', { code: 'killed', signal: 'KILL' }), 'timeout', 'systemd says timeout (SIGKILL)'],
    [stop('resources', null), 'unknown', 'systemd says resources'],
  ];
  for (const [said, signal, why] of cases) {
    const end = lostRunEnd(run, said);
    assert.deepEqual(
      [end.signal, end.exit_code, end.reason],
      [signal, undefined, `deadman ended without recording an exit; ${why}`],
      said.result,
    );
  }
});

test('a deadman systemd saw exit with a status records that status, no signal', () => {
  assert.deepEqual(lostRunEnd(run, stop('exit-code', { code: 'exited', status: 70 })), {
    outcome: 'lost',
    signal: null,
    exit_code: 70,
    reason: 'deadman ended without recording an exit; systemd says exit-code (exit 70)',
    lost: 1,
  });
});

test("a recorded stall keeps its reason; systemd's word still names what ended it", () => {
  assert.deepEqual(
    lostRunEnd({ outcome: 'stalled', invocation_id: invocation }, stop('watchdog', { code: 'killed', signal: 'ABRT' })),
    { outcome: 'stalled', signal: 'watchdog', reason: undefined, lost: 1 },
  );
  assert.equal(
    lostRunEnd({ outcome: 'stalled', invocation_id: invocation }, stop('signal', { code: 'killed', signal: 'KILL' }))
      .signal,
    'SIGKILL',
  );
});

test('systemd speaks only for the run of its own invocation: an older lost run of the name stays unknown', () => {
  assert.equal(
    lostRunEnd({ outcome: null, invocation_id: 'f'.repeat(32) }, stop('signal', { code: 'killed', signal: 'KILL' }))
      .signal,
    'unknown',
  );
  assert.equal(
    lostRunEnd({ outcome: null, invocation_id: null }, stop('signal', { code: 'killed', signal: 'KILL' })).signal,
    'unknown',
  );
});

test('lost is its own mark: any recorded signal reads lost when marked, none when not; rows before migration 6 by their signal', () => {
  const ended = { ended_at: 5, outcome: 'lost', exit_code: null };
  assert.equal(runPresence({ ...ended, signal: 'SIGKILL', lost: 1 }, false), 'lost');
  assert.equal(runPresence({ ...ended, signal: null, exit_code: 70, lost: 1 }, false), 'lost');
  assert.equal(runPresence({ ...ended, outcome: 'stopped', signal: 'SIGTERM', lost: 0 }, false), 'ended');
  assert.equal(runPresence({ ...ended, outcome: 'stopped', signal: 'SIGTERM' }, false), 'ended');
  for (const signal of ['unknown', 'watchdog']) assert.equal(closedAsLost({ signal }), true, `legacy ${signal}`);
  // A pass the same deadman goes on from is no wait once it was closed as lost, whatever the signal says.
  assert.equal(
    runPresence({ ended_at: 5, outcome: 'usage-limit', exit_code: 75, signal: 'oom-kill', lost: 1 }, true),
    'lost',
  );
  assert.equal(
    runPresence({ ended_at: 5, outcome: 'usage-limit', exit_code: 75, signal: null, lost: 0 }, true),
    'running',
  );
});
