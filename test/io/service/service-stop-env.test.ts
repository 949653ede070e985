import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceStopFromEnv } from '../../../lib/io/service/service-stop-env.ts';

const INVOCATION_ID = '0123456789abcdef0123456789abcdef';

test("ExecStopPost='s environment: the result, and the signal or status of the main process", () => {
  assert.deepEqual(
    serviceStopFromEnv({ INVOCATION_ID, SERVICE_RESULT: 'signal', EXIT_CODE: 'killed', EXIT_STATUS: 'KILL' }),
    { invocationId: INVOCATION_ID, result: 'signal', exit: { code: 'killed', signal: 'KILL' } },
  );
  assert.deepEqual(
    serviceStopFromEnv({ INVOCATION_ID, SERVICE_RESULT: 'watchdog', EXIT_CODE: 'dumped', EXIT_STATUS: 'ABRT' })?.exit,
    { code: 'dumped', signal: 'ABRT' },
  );
  assert.deepEqual(
    serviceStopFromEnv({ INVOCATION_ID, SERVICE_RESULT: 'exit-code', EXIT_CODE: 'exited', EXIT_STATUS: '70' })?.exit,
    { code: 'exited', status: 70 },
  );
  assert.deepEqual(serviceStopFromEnv({ INVOCATION_ID, SERVICE_RESULT: 'resources' }), {
    invocationId: INVOCATION_ID,
    result: 'resources',
    exit: null,
  });
});

test('outside ExecStopPost= (a shell, the next run) or with values systemd never sets: no word of systemd', () => {
  assert.equal(serviceStopFromEnv({}), null);
  assert.equal(serviceStopFromEnv({ INVOCATION_ID }), null, "a unit's main process has no result yet");
  assert.equal(
    serviceStopFromEnv({ SERVICE_RESULT: 'signal', EXIT_CODE: 'killed', EXIT_STATUS: 'KILL' }),
    null,
    'no invocation to tie it to',
  );
  assert.equal(serviceStopFromEnv({ INVOCATION_ID: 'x', SERVICE_RESULT: 'signal' }), null);
  assert.equal(serviceStopFromEnv({ INVOCATION_ID, SERVICE_RESULT: 'Signal; rm -rf' }), null);
  assert.equal(
    serviceStopFromEnv({ INVOCATION_ID, SERVICE_RESULT: 'signal', EXIT_CODE: 'killed', EXIT_STATUS: '9' })?.exit,
    null,
    'a killed process names its signal',
  );
  assert.equal(
    serviceStopFromEnv({ INVOCATION_ID, SERVICE_RESULT: 'signal', EXIT_CODE: 'vanished', EXIT_STATUS: 'KILL' }),
    null,
  );
});
