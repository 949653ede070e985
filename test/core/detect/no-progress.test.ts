import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  detectNoProgress,
  FRESH_PROGRESS,
  MAX_SEEN_RESULTS,
  noteAttempt,
  type Attempt,
} from '../../../lib/core/detect/no-progress.ts';
import { unmeasuredWorkspace } from '../../../lib/core/detect/unmeasured-workspace.ts';

const attempt = (command: string, tail: string, ok = true): Attempt => ({
  command,
  exitCode: ok ? 0 : 1,
  outputTail: tail,
  ok,
});
const run = (steps: Array<[Attempt, string | null]>) =>
  steps.reduce((state, [a, w]) => noteAttempt(state, a, w), FRESH_PROGRESS);

test('NO_PROGRESS after 4 attempts that only repeat results already seen, the workspace unchanged; a new result or a change restarts', () => {
  const read = attempt('cat src/parser.ts', 'export function parse() {}');
  const test1 = attempt('npm test', '1 failed (12ms)', false);
  const table: Array<{ why: string; steps: Array<[Attempt, string | null]>; fires: boolean }> = [
    {
      why: 'read and test, over and over',
      steps: [
        [read, 'w'],
        [test1, 'w'],
        [read, 'w'],
        [test1, 'w'],
        [read, 'w'],
        [test1, 'w'],
      ],
      fires: true,
    },
    {
      why: 'only three repeats',
      steps: [
        [read, 'w'],
        [test1, 'w'],
        [read, 'w'],
        [test1, 'w'],
        [read, 'w'],
      ],
      fires: false,
    },
    {
      why: 'a new test result in between',
      steps: [
        [read, 'w'],
        [test1, 'w'],
        [read, 'w'],
        [attempt('npm test', '0 failed'), 'w'],
        [read, 'w'],
        [test1, 'w'],
      ],
      fires: false,
    },
    {
      why: 'a new result restarts the count',
      steps: [
        [read, 'w'],
        [test1, 'w'],
        [read, 'w'],
        [test1, 'w'],
        [attempt('npm test', '0 failed'), 'w'],
        [read, 'w'],
        [test1, 'w'],
      ],
      fires: false,
    },
    {
      why: 'an edit in between',
      steps: [
        [read, 'w'],
        [test1, 'w'],
        [read, 'w'],
        [test1, 'w2'],
        [read, 'w2'],
        [test1, 'w2'],
      ],
      fires: false,
    },
    {
      why: 'numbers and times in the output do not make a result new',
      steps: [
        [test1, null],
        [attempt('npm test', '1 failed (40ms)', false), null],
        [test1, null],
        [test1, null],
        [test1, null],
      ],
      fires: true,
    },
  ];
  for (const row of table) assert.equal(detectNoProgress(run(row.steps), 4) !== null, row.fires, row.why);
  assert.equal(
    detectNoProgress(run(table[0]!.steps), 4)!.message,
    '4 attempts in a row produced no new result and no change to the workspace',
  );
});

test('turns are attempts without a result of their own: 4 turns with no change are NO_PROGRESS', () => {
  const turn: Attempt = { command: '(turn)', exitCode: null, outputTail: '', ok: true, turn: true };
  const turns = (n: number, workspace: (i: number) => string | null) =>
    Array.from({ length: n }, (_, i) => [turn, workspace(i)] as [Attempt, string | null]);
  assert.ok(detectNoProgress(run(turns(4, () => 'w')), 4));
  assert.equal(detectNoProgress(run(turns(3, () => 'w')), 4), null);
  assert.equal(detectNoProgress(run(turns(4, (i) => (i < 2 ? 'w' : 'w2'))), 4), null, 'an edit after the second turn');
});

test('a flood of distinct results keeps at most MAX_SEEN_RESULTS of them, and forgetting never raises NO_PROGRESS', () => {
  // Distinct by their words (numbers are folded): each one new.
  const letters = (i: number) => i.toString(26).replace(/./g, (d) => String.fromCharCode(97 + parseInt(d, 26)));
  const distinct = Array.from({ length: 10 * MAX_SEEN_RESULTS }, (_, i) =>
    attempt(`make test-${letters(i)}`, `ok ${i}`),
  );
  let state = FRESH_PROGRESS;
  for (const a of distinct) {
    state = noteAttempt(state, a, 'w');
    assert.ok(state.seen.size <= MAX_SEEN_RESULTS);
  }
  assert.equal(detectNoProgress(state, 4), null);
  // The first result was forgotten: seen again it is new, not a repeat.
  assert.equal(noteAttempt(state, distinct[0]!, 'w').repeats, state.repeats);
});

test('an unmeasured workspace is unknown: a repeat then is not counted, a new result still restarts the count', () => {
  const read = attempt('cat src/parser.ts', 'export function parse() {}');
  const test1 = attempt('npm test', '1 failed', false);
  const unknown = (n: number) => unmeasuredWorkspace(n);
  assert.equal(
    detectNoProgress(
      run([
        [read, unknown(1)],
        [test1, unknown(2)],
        [read, unknown(3)],
        [test1, unknown(4)],
        [read, unknown(5)],
        [test1, unknown(6)],
      ]),
      4,
    ),
    null,
  );
  const between: Array<[Attempt, string | null]> = [
    [read, 'w'],
    [test1, 'w'],
    [read, unknown(1)],
    [read, 'w'],
    [test1, unknown(2)],
    [test1, 'w'],
    [read, 'w'],
    [test1, 'w'],
  ];
  assert.ok(detectNoProgress(run(between), 4), 'the measured repeats around unknown moments still add up');
  assert.equal(
    run([
      [read, 'w'],
      [test1, 'w'],
      [read, 'w'],
      [attempt('npm test', '0 failed'), unknown(1)],
    ]).repeats,
    0,
    'a new result at an unknown moment is progress',
  );
  const turn: Attempt = { command: '(turn)', exitCode: null, outputTail: '', ok: true, turn: true };
  assert.equal(
    run([
      [turn, 'w'],
      [turn, unknown(1)],
      [turn, unknown(2)],
    ]).repeats,
    1,
    'turns at unknown moments are not counted',
  );
});
