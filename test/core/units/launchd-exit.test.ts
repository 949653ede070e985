import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launchdExitCode } from '../../../lib/core/units/launchd-exit.ts';
import { ExitCode, NO_RESTART_CODES } from '../../../lib/exit-codes.ts';

test('under launchd each "do not restart" code ends the job with 0 and says which code it stands for', () => {
  for (const code of NO_RESTART_CODES) {
    const ended = launchdExitCode(code, 'deadman.review');
    assert.equal(ended.exitCode, 0, String(code));
    assert.equal(
      ended.note,
      `exit ${code} means do not restart: launchd job deadman.review ends with 0, since its KeepAlive (SuccessfulExit=false) restarts on any other code`,
    );
  }
});

test('every other code is kept, 75 (stalled: restart me) first; outside launchd nothing changes', () => {
  for (const code of [
    ExitCode.OK,
    ExitCode.ATTENTION,
    ExitCode.STALLED_RESTART,
    ExitCode.TIMEOUT,
    ExitCode.INTERNAL,
    137,
  ]) {
    assert.deepEqual(launchdExitCode(code, 'deadman.review'), { exitCode: code, note: null });
  }
  for (const label of [undefined, ''])
    assert.deepEqual(launchdExitCode(ExitCode.DO_NOT_RESTART, label), { exitCode: 69, note: null });
});
