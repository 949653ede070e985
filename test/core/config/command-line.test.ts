import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandLineProblem, scanCommandLine } from '../../../lib/core/config/command-line.ts';

const options = new Map([
  ['name', true],
  ['json', false],
  ['dry-run', false],
  ['v', false],
  ['n', true],
]);
const status = { command: 'status', options, takesProgram: false };
const run = { command: 'run', options, takesProgram: true };

test('values, inline values, negations and bundled letters are not mistaken for unknown options', () => {
  assert.deepEqual(
    scanCommandLine(
      ['--name', '--weird', '--json', '--no-json', '--name=x', '-vn', 'y', 'word', '--', '--frob'],
      options,
    ),
    { unknown: null, positionals: ['word'] },
  );
  assert.deepEqual(scanCommandLine(['--no-name'], options).unknown, '--no-name');
  assert.deepEqual(scanCommandLine(['-vx'], options).unknown, '-x');
});

test('the first problem wins, and a program missing its -- is named as the cause', () => {
  assert.equal(
    commandLineProblem(['--dry-rn'], status),
    'unknown option --dry-rn for deadman status; did you mean --dry-run?',
  );
  assert.match(
    commandLineProblem(['--zzzzzz'], status)!,
    /its options are --name, --json, --dry-run \(see deadman status --help\)/,
  );
  assert.match(
    commandLineProblem(['codex', 'exec', '--model', 'x'], run)!,
    /^"codex" is not an option of deadman run; put the program after --/,
  );
  assert.match(
    commandLineProblem(['--model', 'x', '--', 'codex'], run)!,
    /^unknown option --model for deadman run; if it is the program's/,
  );
  assert.equal(commandLineProblem(['--name', 'x', '--json', '--', 'anything', '--goes'], run), null);
});
