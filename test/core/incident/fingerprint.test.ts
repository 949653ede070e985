import { test } from 'node:test';
import assert from 'node:assert/strict';
import { actionFingerprint, stallFingerprint } from '../../../lib/core/incident/fingerprint.ts';

test('the same stall twice has one fingerprint, whatever the pids and durations', () => {
  const first = stallFingerprint({
    kind: 'OUTPUT_INACTIVITY',
    message: 'no output and an idle process tree for 30s (3 processes)',
  });
  const again = stallFingerprint({
    kind: 'OUTPUT_INACTIVITY',
    message: 'no output and an idle process tree for 31s (4 processes)',
  });
  assert.equal(first, again);
});

test('a hung process is told apart by its command line, not its pid', () => {
  const sleep = { comm: 'sleep', cmdline: ['sleep', '600'] };
  assert.equal(
    stallFingerprint({ kind: 'HUNG_PROCESS', message: 'pid 10 idle 61s', target: sleep }),
    stallFingerprint({ kind: 'HUNG_PROCESS', message: 'pid 99 idle 75s', target: sleep }),
  );
  assert.notEqual(
    stallFingerprint({ kind: 'HUNG_PROCESS', message: 'pid 10 idle 61s', target: sleep }),
    stallFingerprint({
      kind: 'HUNG_PROCESS',
      message: 'pid 10 idle 61s',
      target: { comm: 'git', cmdline: ['git', 'push'] },
    }),
  );
});

test('different kinds never share a fingerprint', () => {
  assert.notEqual(
    stallFingerprint({ kind: 'TIMEOUT', message: 'x' }),
    stallFingerprint({ kind: 'NOT_READY', message: 'x' }),
  );
});

test('an action fingerprint: the action, the stall, and the process (pid and start time) or the session it acted on', () => {
  const failure = {
    kind: 'REPEATED_FAILURE',
    message: 'the command `npm test` failed the same way 3 times (exit 1)',
  } as const;
  const resume = actionFingerprint({ ...failure, action: 'CANCEL_AND_RESUME', sessionId: 's1' });
  assert.equal(
    resume,
    actionFingerprint({
      ...failure,
      message: 'the command `npm test` failed the same way 4 times (exit 1)',
      action: 'CANCEL_AND_RESUME',
      sessionId: 's1',
    }),
  );
  assert.notEqual(
    resume,
    actionFingerprint({ ...failure, action: 'CANCEL_AND_RESUME', sessionId: 's2' }),
    'a fresh session is a new target',
  );
  assert.notEqual(resume, actionFingerprint({ ...failure, action: 'HALT_AND_ESCALATE', sessionId: 's1' }));
  assert.notEqual(
    resume,
    actionFingerprint({
      ...failure,
      message: 'the command `make` failed the same way 3 times (exit 2)',
      action: 'CANCEL_AND_RESUME',
      sessionId: 's1',
    }),
  );
  const sleep = { comm: 'sleep', cmdline: ['sleep', '600'] };
  const kill = (pid: number, startTime: number) =>
    actionFingerprint({
      kind: 'HUNG_PROCESS',
      message: 'idle',
      target: sleep,
      action: 'TERMINATE_DESCENDANT_PROCESS',
      process: { pid, startTime },
    });
  assert.equal(kill(10, 500), kill(10, 500));
  assert.notEqual(kill(10, 500), kill(11, 900), 'the same command hung again in a new process is a new target');
  assert.notEqual(kill(10, 500), kill(10, 901), 'a reused pid is a new process');
});
