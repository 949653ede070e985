import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { deadmanBin, runDeadman, runProgram, tempDir } from '../helpers/cli.ts';

/**
 * Quiet when all is well: `deadman run --quiet` prints problems only, and without a terminal
 * (a journal, a cron mail) the summary is one line instead of the block a person reads.
 */

function quietEnv(state: string): NodeJS.ProcessEnv {
  return { ...process.env, STATE_DIRECTORY: state, NOTIFY_SOCKET: '', JOURNAL_STREAM: '' };
}

test('run --quiet -- true prints nothing and exits 0', async (t) => {
  const state = tempDir(t);
  const result = await runDeadman(['run', '--quiet', '--', 'true'], { env: quietEnv(state), cwd: state });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, '');
  assert.equal(result.stderr, '');
});

test('run --quiet says a run that did not end 0, in one line', async (t) => {
  const state = tempDir(t);
  const result = await runDeadman(['run', '--quiet', '--name', 'sad', '--', 'false'], {
    env: quietEnv(state),
    cwd: state,
  });
  assert.equal(result.code, 1);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /^deadman: run sad failed: child exited 1 \(exit 1\)\n$/);
});

test('without a terminal: banner, end line and one summary line; the banner names sd_notify and alerts', async (t) => {
  const state = tempDir(t);
  const result = await runDeadman(['run', '--name', 'plain', '--', 'true'], { env: quietEnv(state), cwd: state });
  assert.equal(result.code, 0, result.stderr);
  const lines = result.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 3, result.stderr);
  assert.match(lines[0]!, / · sd_notify none · alerts none · /);
  assert.doesNotMatch(lines[0]!, / notify none/);
  assert.match(
    lines[2]!,
    new RegExp(
      `^deadman: summary of run plain: status completed: exited 0 · return code 0 · database ${join(state, 'deadman.db')}$`,
    ),
  );
});

test('--summary, or a terminal, gets the block; --summary is said even under --quiet', async (t) => {
  const state = tempDir(t);
  const asked = await runDeadman(['run', '--quiet', '--summary', '--name', 'asked', '--', 'true'], {
    env: quietEnv(state),
    cwd: state,
  });
  assert.equal(asked.code, 0, asked.stderr);
  assert.match(asked.stderr, /^deadman: summary of run asked\ndeadman: {3}status {8}completed: exited 0\n/);
  const command = [process.execPath, deadmanBin, 'run', '--name', 'seen', '--', 'true'].join(' ');
  const terminal = await runProgram('script', ['-qec', command, '/dev/null'], { env: quietEnv(state), cwd: state });
  assert.equal(terminal.code, 0, terminal.stdout);
  assert.match(terminal.stdout, /deadman: summary of run seen\r?\ndeadman: {3}status {8}completed: exited 0\r?\n/);
});
