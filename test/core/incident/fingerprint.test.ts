import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stallFingerprint } from '../../../lib/core/incident/fingerprint.ts';

test('the same stall twice has one fingerprint, whatever the pids and durations', () => {
  const first = stallFingerprint({ kind: 'OUTPUT_INACTIVITY', message: 'no output and an idle process tree for 30s (3 processes)' });
  const again = stallFingerprint({ kind: 'OUTPUT_INACTIVITY', message: 'no output and an idle process tree for 31s (4 processes)' });
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
    stallFingerprint({ kind: 'HUNG_PROCESS', message: 'pid 10 idle 61s', target: { comm: 'git', cmdline: ['git', 'push'] } }),
  );
});

test('different kinds never share a fingerprint', () => {
  assert.notEqual(stallFingerprint({ kind: 'TIMEOUT', message: 'x' }), stallFingerprint({ kind: 'NOT_READY', message: 'x' }));
});
