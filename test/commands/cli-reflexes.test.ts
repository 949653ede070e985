import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandTable, type CommandDoc } from '../../lib/commands/reference/command-table.ts';
import { repoRoot, runDeadman } from '../helpers/cli.ts';

/**
 * What people type by reflex works: `deadman -v`, `deadman help CMD`, an example in every
 * `--help`; and a command line yargs refuses is said in deadman's words, one line, exit 64.
 */

test('deadman -v prints the version; deadman help run is deadman run --help', async () => {
  const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
  const v = await runDeadman(['-v']);
  assert.deepEqual([v.code, v.stdout, v.stderr], [0, `${version}\n`, '']);
  const help = await runDeadman(['help', 'run']);
  const runHelp = await runDeadman(['run', '--help']);
  assert.equal(help.code, 0, help.stderr);
  assert.equal(help.stdout, runHelp.stdout);
  const nested = await runDeadman(['help', 'config', 'check']);
  assert.match(nested.stdout, /^deadman config check/);
  const checkVerbose = await runDeadman(['check', '-v', '--help']);
  assert.match(checkVerbose.stdout, /-v, --verbose/, 'check keeps -v for --verbose');
});

test("every command's --help shows an example of it", async () => {
  const names = (table: readonly CommandDoc[]): string[] => table.flatMap((c) => [c.name, ...names(c.subcommands)]);
  for (const name of names(commandTable())) {
    const help = await runDeadman([...name.split(' '), '--help']);
    assert.equal(help.code, 0, name);
    assert.match(help.stdout, new RegExp(`\\nExamples:\\n {2}deadman ${name} `), `deadman ${name} --help`);
  }
});

test("no yargs wording: each refused command line is one line of deadman's, exit 64", async () => {
  const cases: Array<[string[], RegExp]> = [
    [
      ['config', 'chek'],
      /^deadman: unknown action "chek" for deadman config; did you mean "check"\? \(see deadman config --help\)$/,
    ],
    [
      ['notify', 'bogus'],
      /^deadman: <event> "bogus" is not one of start, success, fail, incident \(see deadman notify --help\)$/,
    ],
    [['notify'], /^deadman: missing <event> for deadman notify \(see deadman notify --help\)$/],
    [['check', '--json', '--fix'], /^deadman: --json and --fix do not go together \(see deadman check --help\)$/],
    [
      ['config', 'check', '--json', '--quiet'],
      /^deadman: --json and --quiet do not go together \(see deadman config check --help\)$/,
    ],
    [
      ['install', '--sandbox', 'bogus', '--', 'true'],
      /^deadman: --sandbox "bogus" is not one of strict, default, off \(see deadman install --help\)$/,
    ],
    [
      ['run', '--name', '-v', '--', 'true'],
      /^deadman: --name needs a value, and the next word is an option; a value that starts with a dash goes as --name=-… \(see deadman run --help\)$/,
    ],
    [['run', '--name'], /^deadman: --name needs a value \(see deadman run --help\)$/],
  ];
  for (const [args, line] of cases) {
    const result = await runDeadman(args);
    assert.equal(result.code, 64, args.join(' '));
    assert.match(result.stderr.trimEnd(), line, args.join(' '));
    assert.doesNotMatch(
      result.stderr,
      /Did you mean [a-z]+\?|Invalid values|Not enough non-option|mutually exclusive|ambiguous|Argument: /,
    );
  }
});
