import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DeadmanError, ExitCode } from '../../../lib/exit-codes.ts';
import { systemClock } from '../../../lib/io/time/clock.ts';
import { createObserver } from '../../../lib/io/process/observer.ts';
import { startTree } from '../../helpers/process-tree.ts';

test('picks the observer for the platform, and refuses others with one line', async (t) => {
  const tree = startTree(t, 'sleep', ['600']);
  const options = { rootPid: tree.pid, useCgroup: false, monotonic: systemClock.monotonic };
  for (const platform of ['linux', 'darwin'] as const) {
    const [root] = createObserver(options, platform).observe().processes;
    assert.equal(root?.pid, tree.pid, platform);
  }
  assert.throws(
    () => createObserver(options, 'win32'),
    (error: unknown) =>
      error instanceof DeadmanError &&
      error.exitCode === ExitCode.DO_NOT_RESTART &&
      /Linux and macOS/.test(error.message),
  );
});
