import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { tempDir, waitFor } from '../helpers/cli.ts';
import { CONTINUE_PROMPT } from '../../lib/commands/agent/agent-continue.ts';
import { claudeUsageLimit } from './model-server/backend-errors.ts';
import type { LoggedRequest } from './harness/model-server.ts';
import { startModelServer } from './harness/model-server.ts';
import { configWithAlerts } from './harness/records.ts';
import { skipUnlessAgent } from './harness/skip.ts';
import { promptReady, startTui, type Tui } from './harness/tui.ts';

/**
 * The real interactive Claude Code under `deadman agent`, logged in with a subscription, hits a
 * usage limit whose reset is a few seconds ahead (the model server's 429 with the unified
 * rate-limit headers). Claude writes the limit to its transcript as "You've hit your 5-hour limit
 * · resets 11:49pm (UTC)", which deadman reads as the end of that minute.
 * - With "Continue automatically at usage limit" on (Claude's default), Claude sends its own
 *   continue turn some time after the reset (about 50 s past the end of the minute, measured);
 *   deadman, with the default 2 min `continue_grace`, sees it in the transcript and sends nothing:
 *   the model receives exactly one continue turn, Claude's.
 * - With it off (`autoContinueAtUsageLimit: false` in ~/.claude/settings.json) Claude waits for
 *   its person; after the reset plus a 2 s grace deadman resumes the session with its prompt, once.
 */

const RESET_S = 5;
/** Claude Code's own continue turn, as 2.1.332 words it. */
const CLAUDE_CONTINUE = 'Your claude.ai usage limit has reset.';
const PROMPT = 'Say hello, then report.';

const says = (request: LoggedRequest, text: string) => JSON.stringify(request.body.messages ?? '').includes(text);

function skip(): false | string {
  const agent = skipUnlessAgent('claude');
  if (agent !== false) return agent;
  return spawnSync('tmux', ['-V']).status === 0
    ? false
    : 'tmux is not installed (the test drives the TUI in a tmux terminal)';
}

async function limitedTui(t: { after(fn: () => void): void }, autoContinue: boolean, grace: string) {
  const dir = tempDir(t, 'deadman-agents-tui-');
  const server = await startModelServer(t, dir, [
    claudeUsageLimit(RESET_S),
    { kind: 'text', text: 'Continued after the reset; done.' },
  ]);
  const config = configWithAlerts(dir, `[usage_limit]\ncontinue_grace = "${grace}"`);
  const tui = startTui(t, server, dir, { autoContinue, config });
  await promptReady(tui, 60_000);
  tui.submit(PROMPT);
  await waitFor(() => server.turns().length >= 1 || undefined, 60_000, 'the limited request');
  await waitFor(() => /usage limit|5-hour limit/i.test(tui.screen()) || undefined, 30_000, 'Claude to show the limit');
  return { server, tui };
}

/** Quits the agent as its person would; how deadman ended is said, not asserted (the namespace is killed after the test anyway). */
async function quit(t: { diagnostic(message: string): void }, tui: Tui): Promise<void> {
  tui.quit();
  const code = await waitFor(() => tui.exitCode() ?? undefined, 15_000, 'deadman agent to end with the agent').catch(
    () => null,
  );
  t.diagnostic(
    code === null
      ? 'deadman agent still running after /exit (killed with the namespace)'
      : `deadman agent exit ${code}`,
  );
}

function diagnose(t: { diagnostic(message: string): void }, tui: Tui, started: number): void {
  t.diagnostic(`wall ${((performance.now() - started) / 1000).toFixed(1)} s`);
  for (const line of tui.deadmanLines().split('\n'))
    if (/^deadman: (?!run \S+ ·|summary of run| )/.test(line)) t.diagnostic(line);
}

test('claude TUI continues by itself after the reset: deadman sends no second prompt', { skip: skip() }, async (t) => {
  const started = performance.now();
  const { server, tui } = await limitedTui(t, true, '2min');
  assert.match(tui.screen(), /continue automatically/i, 'Claude armed its auto-continue');
  // The end of the reset's minute plus Claude's own delay: inside deadman's 2 min grace.
  await waitFor(() => server.turns().length >= 2 || undefined, 150_000, "Claude's own continue turn");
  await waitFor(
    () => /continued by itself after its usage limit: no prompt sent/.test(tui.deadmanLines()) || undefined,
    10_000,
    'deadman to see it',
  );
  const [limited, continued] = server.turns();
  assert.ok(says(continued!, CLAUDE_CONTINUE), "the second turn is Claude's own continue");
  assert.ok(continued!.at - limited!.at >= (RESET_S - 1) * 1000, 'continued only after the reset');
  await quit(t, tui);
  diagnose(t, tui, started);
  const turns = server.turns();
  assert.equal(
    turns.filter((r) => says(r, CLAUDE_CONTINUE) || says(r, CONTINUE_PROMPT)).length,
    1,
    'exactly one continue turn',
  );
  assert.equal(turns.filter((r) => says(r, CONTINUE_PROMPT)).length, 0, 'none from deadman');
  assert.doesNotMatch(tui.deadmanLines(), /resuming the session with a prompt/);
});

test(
  'claude TUI with auto-continue off: deadman resumes the session with one prompt after the grace',
  { skip: skip() },
  async (t) => {
    const started = performance.now();
    const { server, tui } = await limitedTui(t, false, '2s');
    await waitFor(() => server.turns().length >= 2 || undefined, 120_000, "deadman's continue turn");
    assert.match(
      tui.deadmanLines(),
      /claude did not continue within usage_limit\.continue_grace after its usage limit reset: resuming the session with a prompt to continue/,
    );
    const [limited, continued] = server.turns();
    assert.ok(says(continued!, CONTINUE_PROMPT), "the second turn is deadman's prompt");
    assert.ok(says(continued!, PROMPT), 'in the same conversation');
    assert.ok(continued!.at - limited!.at >= (RESET_S + 2 - 1) * 1000, 'only after the reset and the grace');
    await waitFor(
      () => /Continued after the reset; done\./.test(tui.screen()) || undefined,
      30_000,
      'the resumed answer on screen',
    );
    await quit(t, tui);
    diagnose(t, tui, started);
    const turns = server.turns();
    assert.equal(turns.filter((r) => says(r, CONTINUE_PROMPT)).length, 1, 'prompted once');
    assert.equal(turns.filter((r) => says(r, CLAUDE_CONTINUE)).length, 0, 'Claude did not continue by itself');
  },
);
