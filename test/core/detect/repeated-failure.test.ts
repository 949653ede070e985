import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  detectRepeatedFailure,
  failureSignature,
  NO_REPEAT,
  noteToolResult,
  type RepeatState,
  type ToolFailure,
} from '../../../lib/core/detect/repeated-failure.ts';
import { unmeasuredWorkspace } from '../../../lib/core/detect/unmeasured-workspace.ts';

const fail = (tail: string, command = 'npm test', exitCode: number | null = 1): ToolFailure => ({
  command,
  exitCode,
  outputTail: tail,
});
const run = (steps: Array<{ failure: ToolFailure | null; workspace: string | null }>): RepeatState =>
  steps.reduce(noteToolResult, NO_REPEAT);

test('the signature folds numbers, paths, timestamps and hex ids, and keeps the command and exit status', () => {
  const a = failureSignature(
    fail('FAIL /home/a/src/x.test.ts:12 at 2026-12-02T10:00:01Z (pid 4242, 0x7f3a2b1c) took 31ms'),
  );
  const b = failureSignature(
    fail('FAIL /tmp/other/x.test.ts:99 at 2026-12-03T11:22:33.5Z (pid 77, 0xdeadbeef1) took 1.5ms'),
  );
  assert.equal(a, b);
  assert.notEqual(a, failureSignature(fail('FAIL /home/a/src/x.test.ts:12', 'npm run lint')));
  assert.notEqual(
    a,
    failureSignature(
      fail('FAIL /home/a/src/x.test.ts:12 at 2026-12-02T10:00:01Z (pid 4242, 0x7f3a2b1c) took 31ms', 'npm test', 2),
    ),
  );
  assert.notEqual(failureSignature(fail('1 failed, 3 passed')), failureSignature(fail('expected true, got false')));
});

test('REPEATED_FAILURE after 3 identical failures with the workspace unchanged; each kind of change resets it', () => {
  const same = { failure: fail('AssertionError: expected 2 to equal 3 (7ms)'), workspace: 'w1' };
  const table: Array<{
    why: string;
    steps: Array<{ failure: ToolFailure | null; workspace: string | null }>;
    fires: boolean;
  }> = [
    { why: 'three identical failures', steps: [same, same, same], fires: true },
    {
      why: 'outside a git work tree (no fingerprint) it still counts',
      steps: [
        { ...same, workspace: null },
        { ...same, workspace: null },
        { ...same, workspace: null },
      ],
      fires: true,
    },
    { why: 'only two', steps: [same, same], fires: false },
    { why: 'a new diff in between', steps: [same, same, { ...same, workspace: 'w2' }], fires: false },
    {
      why: 'a changed test result',
      steps: [same, same, { failure: fail('AssertionError: expected 3 to equal 4'), workspace: 'w1' }],
      fires: false,
    },
    {
      why: 'a different command',
      steps: [same, same, { failure: fail('AssertionError: expected 2 to equal 3', 'npm run build'), workspace: 'w1' }],
      fires: false,
    },
    { why: 'a success in between', steps: [same, same, { failure: null, workspace: 'w1' }, same], fires: false },
  ];
  for (const row of table) assert.equal(detectRepeatedFailure(run(row.steps), 3) !== null, row.fires, row.why);
});

test('the rule guidance names the command, how it failed and its last output lines', () => {
  const same = { failure: fail('line 1\nline 2\nAssertionError: expected 2 to equal 3'), workspace: 'w1' };
  const found = detectRepeatedFailure(run([same, same, same]), 3)!;
  assert.equal(found.message, '`npm test` failed the same way 3 times (exit 1) with no change to the workspace');
  assert.match(found.guidance, /the command `npm test` failed the same way 3 times in a row \(exit 1\)/);
  assert.match(found.guidance, /Its output ended with:\nline 1\nline 2\nAssertionError: expected 2 to equal 3/);
  assert.match(found.guidance, /Do not run it again unchanged/);
});

test('an unmeasured workspace is unknown: the same failure then is neither counted nor a reset', () => {
  const same = { failure: fail('AssertionError: expected 2 to equal 3'), workspace: 'w1' };
  const unmeasured = (n: number) => ({ ...same, workspace: unmeasuredWorkspace(n) });
  // Counted as the same, an edit between two reruns went unseen; counted as a change, a busy host never saw the loop.
  assert.equal(
    detectRepeatedFailure(run([unmeasured(1), unmeasured(2), unmeasured(3)]), 3),
    null,
    'three unknown moments are no streak',
  );
  assert.ok(
    detectRepeatedFailure(run([same, unmeasured(1), same, unmeasured(2), same]), 3),
    'the measured three still make one',
  );
  assert.equal(run([same, same, unmeasured(1)]).count, 2);
  assert.equal(
    detectRepeatedFailure(run([same, unmeasured(1), { ...same, workspace: 'w2' }, same]), 3),
    null,
    'a measured change still resets',
  );
});
