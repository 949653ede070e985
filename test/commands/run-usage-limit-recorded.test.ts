import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { argvLog, fakeAgent } from '../helpers/fake-agent.ts';
import { fixtureLines } from '../helpers/fixtures.ts';

/**
 * Usage limits and throttles end to end, with the real CLIs' recorded lines (agent-formats.md
 * §F) printed by the fake agent in its first process ($FAKE_AGENT_LIMIT_LINES); a resumed one
 * completes. A Claude throttle ("not your usage limit", rejected with no resetsAt) is waited out
 * with a short backoff and resumed — never exit 69 — and the resumed prompt says it was a
 * throttle. Codex 0.169's words are a usage limit with a local-time reset.
 */

const AGENTS = {
  claude: ['claude', '-p', 'the task', '--output-format', 'stream-json', '--verbose'],
  codex: ['codex', 'exec', '--json', 'the task'],
};

function runWithLines(t: { after(fn: () => void): void }, adapter: 'claude' | 'codex', lines: string[], toml: string) {
  const dir = tempDir(t);
  const database = join(dir, 'deadman.db');
  const config = join(dir, 'deadman.toml');
  writeFileSync(config, toml);
  const linesFile = join(dir, 'limit.jsonl');
  writeFileSync(linesFile, `${lines.join('\n')}\n`);
  const argvFile = join(dir, 'argv.jsonl');
  const result = runDeadman(
    [
      'run',
      '--config',
      config,
      '--database',
      database,
      '--adapter',
      adapter,
      '--poll',
      '200ms',
      '--stop-grace',
      '2s',
      '--',
      process.execPath,
      fakeAgent,
      ...AGENTS[adapter],
    ],
    {
      env: {
        ...process.env,
        STATE_DIRECTORY: dir,
        NOTIFY_SOCKET: '',
        FAKE_AGENT_SCENARIO: 'usage-limit',
        FAKE_AGENT_LIMIT_LINES: linesFile,
        FAKE_AGENT_ARGV_LOG: argvFile,
      },
      cwd: dir,
    },
  );
  return { result, database, argvFile };
}

test('claude: a throttle that is not the usage limit → a 1 s backoff, then the session resumes and completes (exit 0, never 69)', async (t) => {
  // The fixture's init line is the fake agent's own; the rate_limit_event (no resetsAt) and the result follow it.
  const lines = fixtureLines('agents', 'claude-throttled.jsonl').slice(1);
  const { result: running, database, argvFile } = runWithLines(t, 'claude', lines, '[usage_limit]\nbackoff = "1s"\n');
  const result = await running;
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /backing off until \d\d:\d\d(:\d\d)? UTC \(in [12]s\), then resuming the session/);
  const [first, resumed] = argvLog(argvFile);
  assert.ok(first && !first.includes('--resume'));
  assert.ok(resumed?.includes('--resume'), JSON.stringify(resumed));
  assert.match(
    resumed![resumed!.indexOf('-p') + 1]!,
    /^Your previous run in this session stopped because the API throttled requests/,
    'the resumed prompt says what happened',
  );
  assert.deepEqual(
    query<{ outcome: string }>(database, 'SELECT outcome FROM runs ORDER BY id').map((r) => r.outcome),
    ['usage-limit', 'completed'],
  );
});

/** "h:mm AM" in the host's zone, `aheadMs` from now: how Codex 0.169 prints the reset. */
function hostClock(aheadMs: number): string {
  return new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', hour12: true })
    .format(Date.now() + aheadMs)
    .replace(/\s/g, ' ');
}

test('codex 0.169: "You’ve hit your usage limit … try again at <h:mm PM>." is a USAGE_LIMIT whose reset is read in the host zone', async (t) => {
  const text = (line: string) => line.replace('3:54 PM', hostClock(2 * 3_600_000));
  const lines = fixtureLines('agents', 'codex-usage-limit.jsonl').slice(2).map(text);
  const { result: running, database } = runWithLines(t, 'codex', lines, '[usage_limit]\nmax_wait = "10s"\n');
  const result = await running;
  assert.equal(result.code, 69, result.stderr);
  // Two hours ahead, to the end of that minute: beyond max_wait, so the reset was read (not "no reset time").
  assert.match(
    result.stderr,
    /USAGE_LIMIT: not waiting, the limit resets at \d\d:\d\d UTC, beyond usage_limit\.max_wait \(10s\) from now/,
  );
  assert.deepEqual(
    query<{ kind: string }>(database, 'SELECT kind FROM incidents').map((r) => r.kind),
    ['USAGE_LIMIT'],
  );
  assert.deepEqual(
    query<{ outcome: string }>(database, 'SELECT outcome FROM runs').map((r) => r.outcome),
    ['usage-limit'],
  );
});
