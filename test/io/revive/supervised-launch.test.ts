import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resumeEnvironment, serviceManagerOf } from '../../../lib/io/revive/supervised-launch.ts';

test('the manager deadman runs under: user with $MANAGERPID, system without, none outside a unit', () => {
  assert.equal(serviceManagerOf({ INVOCATION_ID: 'abc', MANAGERPID: '812' }), 'user');
  assert.equal(serviceManagerOf({ INVOCATION_ID: 'abc' }), 'system');
  assert.equal(serviceManagerOf({ MANAGERPID: '812' }), null);
  assert.equal(serviceManagerOf({ INVOCATION_ID: '' }), null);
});

test("the resume gets the hook's environment and the hand-off tag, not what systemd set for the hook's unit", () => {
  const { env, names } = resumeEnvironment(
    {
      HOME: '/home/a',
      OPENAI_API_KEY: 'k',
      INVOCATION_ID: 'x',
      JOURNAL_STREAM: '8:1',
      MANAGERPID: '1',
      NOTIFY_SOCKET: '/run/n',
      MONITOR_UNIT: 'u',
      'BASH_FUNC_f%%': '() {}',
    },
    'a'.repeat(32),
  );
  assert.deepEqual(names.sort(), ['DEADMAN_RUN_TAG', 'HOME', 'OPENAI_API_KEY']);
  assert.equal(env.DEADMAN_RUN_TAG, 'a'.repeat(32));
});
