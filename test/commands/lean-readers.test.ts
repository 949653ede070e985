import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readLean } from '../../lib/commands/lean-readers.ts';

/**
 * The probes' own parser (lib/commands/lean-readers.ts) takes only command lines yargs would
 * take exactly so; every other one is left to yargs (null), which refuses it in its usual words
 * (test/commands/health.test.ts, cli-reflexes.test.ts). Nothing runs before it decides.
 */

test('a command line that is not plainly valid, or no probe, is left to yargs', async () => {
  const leftToYargs: Array<[string | undefined, string[]]> = [
    ['health', ['--name', 'a', '--name', 'b']],
    ['health', ['--json', '--quiet']],
    ['health', ['--name']],
    ['health', ['--quiet=yes']],
    ['status', ['--bogus']],
    ['status', ['--stateDir', '/x']],
    ['metrics', ['extra']],
    ['metrics', ['--no-json']],
    ['metrics', ['--json', '--', 'x']],
    ['report', []],
    [undefined, []],
  ];
  for (const [command, words] of leftToYargs)
    assert.equal(await readLean(command, words), null, `${command} ${words.join(' ')}`);
});
