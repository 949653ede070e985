import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CRASH_OPENING, reviveOpening } from '../../../lib/core/revive/revive-opening.ts';
import { reviveMessage } from '../../../lib/core/revive/resume-argv.ts';
import { startsWithReviveMessage } from '../../../lib/core/revive/session-files.ts';

/** The revive prompt opens with what really stopped the run, read from the marker: a usage limit, a throttle, a failed turn, a stop by deadman, a crash. */

const interrupted = (reason: string) => ({ state: 'interrupted' as const, reason });

test('each way a run ends gets its own opening; only an unexplained exit is called a crash', () => {
  const table: Array<[string, { state: 'running' | 'interrupted'; reason: string | null }, RegExp]> = [
    [
      'a failed turn (API error, exit 1)',
      interrupted("failed: the agent's turn failed: success: API Error: 400 mock bad request (exit 1)"),
      /^Your previous turn in this session failed with an error, not a crash: success: API Error: 400 mock bad request \(exit 1\)\.$/,
    ],
    [
      'a usage limit',
      interrupted('usage-limit: Codex usage limit reached'),
      /^Your previous run in this session stopped at the usage limit of your plan \(Codex usage limit reached\); deadman waited for the limit to reset\.$/,
    ],
    [
      'a throttle',
      interrupted('usage-limit: Claude API throttled (not a usage limit)'),
      /^Your previous run in this session stopped because the API throttled requests/,
    ],
    [
      'a stall deadman stopped',
      interrupted('stalled: no codex output for 3s'),
      /^Your previous run in this session was stopped by deadman: no codex output for 3s\.$/,
    ],
    ['a child killed by a signal', interrupted('failed: child killed by SIGKILL'), /cut off by a process exit/],
    ['a bare exit code', interrupted('failed: child exited 1'), /cut off by a process exit/],
    [
      'the supervisor died too (marker still running)',
      { state: 'running', reason: 'revive 1 of an interrupted session' },
      /cut off by a process exit/,
    ],
  ];
  for (const [why, marker, expected] of table) assert.match(reviveOpening(marker), expected, why);
  assert.equal(
    reviveOpening(interrupted(`failed: the agent's turn failed: ${'x'.repeat(2_000)}`)).length < 400,
    true,
    "the agent's words are bounded",
  );
});

test("the default message is the crash opening; every opening is still known as deadman's in the session files", () => {
  assert.ok(reviveMessage(null).startsWith(CRASH_OPENING));
  assert.equal(reviveMessage('the task'), `${reviveMessage(null)}\n\nThe original task was:\nthe task`);
  const isRevive = startsWithReviveMessage();
  for (const reason of [
    "failed: the agent's turn failed: boom (exit 1)",
    'usage-limit: Codex usage limit reached',
    'usage-limit: Claude API throttled (not a usage limit)',
    'stalled: silent',
    'failed: child exited 1',
  ]) {
    assert.ok(isRevive(reviveMessage('t', undefined, reviveOpening(interrupted(reason)))), reason);
  }
  assert.equal(isRevive('please fix the parser'), false);
});
