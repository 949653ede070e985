import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/cli.ts';
import { watchAutoContinue } from '../../lib/commands/agent/agent-continue.ts';

/**
 * The watcher of a resumed `deadman agent` pass: the real Claude Code's transcript still holds the
 * limit deadman answered by resuming with its prompt, and the resumed TUI needs seconds before the
 * prompt's turn is written. The answered limit is not answered again (before, the resumed TUI was
 * ended within seconds, pass after pass, until the revive budget was spent); a new one is.
 */

const SAID = '2026-12-07T00:10:23.000Z';
const limitEntry = (timestamp: string, resets = '12:10am') =>
  JSON.stringify({
    type: 'assistant',
    timestamp,
    isApiErrorMessage: true,
    error: 'rate_limit',
    message: { content: [{ type: 'text', text: `You've hit your 5-hour limit · resets ${resets} (UTC)` }] },
  });

function watch(t: { after(fn: () => void): void }, lines: string[], answeredLimitAt: number | null): string[] {
  const file = join(tempDir(t), 'transcript.jsonl');
  writeFileSync(file, lines.join('\n') + '\n');
  let poll = () => {};
  const calls: string[] = [];
  watchAutoContinue(file, {
    agent: 'claude',
    graceMs: 2_000,
    clock: { wall: () => Date.parse('2026-12-07T00:30:00Z') },
    pollMs: 250,
    every: (_ms, run) => ((poll = run), () => {}),
    logger: { log: () => {} },
    answeredLimitAt,
    onContinue: (_reason, limitAt) => calls.push(new Date(limitAt).toISOString()),
  });
  poll();
  poll();
  return calls;
}

test('a limit not yet answered, silent past its reset and the grace, is continued once', (t) => {
  assert.deepEqual(watch(t, [limitEntry(SAID)], null), [SAID]);
});

test('the limit the previous pass answered is not answered again in the resumed pass', (t) => {
  assert.deepEqual(watch(t, [limitEntry(SAID)], Date.parse(SAID)), []);
});

test('a new limit after the answered one is judged afresh', (t) => {
  const later = '2026-12-07T00:20:01.000Z';
  assert.deepEqual(watch(t, [limitEntry(SAID), limitEntry(later, '12:20am')], Date.parse(SAID)), [later]);
});
