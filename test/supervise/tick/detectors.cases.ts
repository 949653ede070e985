import { test } from 'node:test';
import assert from 'node:assert/strict';
import { foldAttempts, runDetectors, type DetectorInput } from '../../../lib/supervise/tick/detectors.ts';
import type { Attempt } from '../../../lib/core/detect/no-progress.ts';

/**
 * Each detector keeps its own state (init / fold / detect): the supervisor only folds the
 * attempts in and asks. The workspace fingerprint is taken at most once per fold, for all
 * detectors, and only when an attempt carries none.
 */

const input = {} as DetectorInput;
const failure = (workspace?: string | null): Attempt => ({
  command: 'npm test',
  exitCode: 1,
  outputTail: 'FAIL 1 test',
  ok: false,
  ...(workspace !== undefined ? { workspace } : {}),
});

test('REPEATED_FAILURE and NO_PROGRESS count in their own state, and forget it when attempts were lost', () => {
  const detectors = runDetectors(['REPEATED_FAILURE', 'NO_PROGRESS']);
  const [repeated, noProgress] = detectors;
  foldAttempts(detectors, [failure('w1'), failure('w1')], () => assert.fail('every attempt has a fingerprint'));
  assert.equal(repeated!.detect(input), null);
  foldAttempts(detectors, [failure('w1')], () => null);
  assert.equal(repeated!.detect(input)?.kind, 'REPEATED_FAILURE');
  assert.match(repeated!.detect(input)!.guidance!, /failed the same way 3 times/);
  assert.equal(noProgress!.detect(input), null);
  foldAttempts(detectors, [failure('w1'), failure('w1')], () => null);
  assert.deepEqual(noProgress!.detect(input), {
    kind: 'NO_PROGRESS',
    fingerprint: 'NO_PROGRESS',
    message: '4 attempts in a row produced no new result and no change to the workspace',
  });
  for (const detector of detectors) detector.forget();
  assert.equal(repeated!.detect(input), null);
  assert.equal(noProgress!.detect(input), null);
});

test('the workspace is asked once per fold, for every detector, when an attempt carries no fingerprint', () => {
  const detectors = runDetectors(['REPEATED_FAILURE', 'NO_PROGRESS']);
  let asked = 0;
  foldAttempts(detectors, [failure(), failure(), failure()], () => `w${++asked}`);
  assert.equal(asked, 1);
  assert.equal(detectors[0]!.detect(input)?.kind, 'REPEATED_FAILURE');
});

test("only spent credit and the usage limit look once more at the root's exit (the agent says them and exits)", () => {
  assert.deepEqual(
    runDetectors()
      .filter((d) => d.atExit)
      .map((d) => d.kind),
    ['CREDIT_EXHAUSTED', 'USAGE_LIMIT'],
  );
});
