import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkServiceName, deadmanArgv } from '../../../lib/core/units/service-command.ts';
import { DeadmanError, ExitCode } from '../../../lib/exit-codes.ts';

test("deadmanArgv puts deadman's own options before -- and the command after", () => {
  assert.deepEqual(
    deadmanArgv({
      nodePath: '/n',
      deadmanEntry: '/d.js',
      runArgs: ['--poll', '2s'],
      command: ['/x', '--poll'],
      name: 'x',
    }),
    ['/n', '/d.js', 'run', '--name', 'x', '--poll', '2s', '--', '/x', '--poll'],
  );
});

test('service names are plain file-name words', () => {
  for (const good of ['review', 'nightly.build', 'a_b-c', 'x'.repeat(100)])
    assert.doesNotThrow(() => checkServiceName(good), good);
  for (const bad of ['', 'a@b', 'a/b', 'two words', '%n', 'x'.repeat(101), 'ü']) {
    assert.throws(
      () => checkServiceName(bad),
      (e: unknown) => e instanceof DeadmanError && e.exitCode === ExitCode.USAGE,
      bad,
    );
  }
});
