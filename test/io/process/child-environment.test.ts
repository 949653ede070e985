import { test } from 'node:test';
import assert from 'node:assert/strict';
import { childEnvironment } from '../../../lib/io/process/child-environment.ts';
import { shellExitCode } from '../../../lib/io/process/exit-status.ts';
import { RUN_TAG_ENV } from '../../../lib/core/process/run-tag.ts';

const unitEnv = {
  PATH: '/bin',
  NOTIFY_SOCKET: '/run/n',
  WATCHDOG_USEC: '1',
  WATCHDOG_PID: '2',
  LISTEN_PID: '3',
  LISTEN_FDS: '1',
  LISTEN_FDNAMES: 'x',
  DEADMAN_LAUNCHD_LABEL: 'deadman.review',
};

test("what deadman starts keeps the environment but never the unit's systemd variables or its launchd label; the run tag is added when given", () => {
  assert.deepEqual(childEnvironment(unitEnv, null), { PATH: '/bin' });
  assert.deepEqual(childEnvironment(unitEnv, 'tag-1'), { PATH: '/bin', [RUN_TAG_ENV]: 'tag-1' });
  assert.equal(unitEnv.NOTIFY_SOCKET, '/run/n', 'the given environment is not changed');
});

test("a child's end reads as a shell reports it: its own code, or 128 + the signal that killed it", () => {
  assert.equal(shellExitCode(3, null), 3);
  assert.equal(shellExitCode(null, 'SIGKILL'), 137);
  assert.equal(shellExitCode(null, 'SIGINT'), 130);
});
