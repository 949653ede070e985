import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runArgsLine, usageLine } from '../../../lib/core/config/usage-words.ts';

/** yargs' and parseArgs' messages, as they come, in deadman's words: one line, the command, its help. */
test('usageLine: each yargs message deadman can meet becomes one line of its own', () => {
  const notify = { command: 'notify', usage: '<event>', typed: 'bogus' };
  const cases: Array<[string, { command: string; usage: string; typed: string | undefined }, string]> = [
    [
      'Did you mean check?',
      { command: 'config', usage: '<action>', typed: 'chek' },
      'unknown action "chek" for deadman config; did you mean "check"? (see deadman config --help)',
    ],
    [
      'Not enough non-option arguments: got 0, need at least 1',
      { command: 'notify', usage: '<event>', typed: undefined },
      'missing <event> for deadman notify (see deadman notify --help)',
    ],
    [
      'Invalid values:\n  Argument: event, Given: "bogus", Choices: "start", "success", "fail", "incident"',
      notify,
      '<event> "bogus" is not one of start, success, fail, incident (see deadman notify --help)',
    ],
    [
      'Invalid values:\n  Argument: sandbox, Given: "x", Choices: "strict", "default", "off"',
      { command: 'install', usage: '', typed: undefined },
      '--sandbox "x" is not one of strict, default, off (see deadman install --help)',
    ],
    [
      'Arguments json and fix are mutually exclusive',
      { command: 'check', usage: '[jobs..]', typed: undefined },
      '--json and --fix do not go together (see deadman check --help)',
    ],
    [
      'Missing required argument: pid',
      { command: 'attach', usage: '', typed: undefined },
      'missing --pid for deadman attach (see deadman attach --help)',
    ],
    [
      'Implications failed:\n  yes -> fix',
      { command: 'check', usage: '[jobs..]', typed: undefined },
      '--yes needs --fix (see deadman check --help)',
    ],
    [
      'Something new\nover two lines',
      { command: '', usage: '', typed: undefined },
      'Something new; over two lines (see deadman --help)',
    ],
  ];
  for (const [message, at, line] of cases) assert.equal(usageLine(message, at), line, message);
});

test('runArgsLine: a run flag without its value, or with an option where the value goes', () => {
  assert.equal(
    runArgsLine("Option '--name <value>' argument missing"),
    '--name needs a value (see deadman run --help)',
  );
  assert.equal(
    runArgsLine(
      "Option '--name' argument is ambiguous.\nDid you forget to specify the option argument for '--name'?\nTo specify an option argument starting with a dash use '--name=-XYZ'.",
    ),
    '--name needs a value, and the next word is an option; a value that starts with a dash goes as --name=-… (see deadman run --help)',
  );
});
