import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from '../../../lib/io/log/log.ts';
import { runDeadman, tempDir } from '../../helpers/cli.ts';

test('journal lines carry sd-daemon priority prefixes; terminal lines are plain', () => {
  let written = '';
  createLogger((text) => (written += text), true).log('error', 'bad\nworse');
  createLogger((text) => (written += text), true).log('info', 'fine');
  createLogger((text) => (written += text), false).log('warn', 'plain');
  assert.equal(written, '<3>deadman: bad\n<3>deadman: worse\n<6>deadman: fine\ndeadman: plain\n');
});

test("$JOURNAL_STREAM is honoured only when it names deadman's own stderr", async (t) => {
  const result = await runDeadman(['run', '--', 'true'], {
    env: { ...process.env, JOURNAL_STREAM: '1:2', NOTIFY_SOCKET: '', STATE_DIRECTORY: tempDir(t) },
  });
  assert.equal(result.code, 0);
  assert.match(result.stderr, /^deadman: run true/m, 'a pipe that is not the journal gets plain lines');
});
