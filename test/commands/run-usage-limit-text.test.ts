import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { argvLog, fakeAgent } from '../helpers/fake-agent.ts';

/**
 * USAGE_LIMIT from Claude's words alone: a fake Claude prints no rate_limit_event, only the
 * synthetic assistant text and the is_error result "You've hit your limit · resets 7:35pm
 * (Asia/Kolkata)" (its reset 3 s ahead, at minute precision). The run reads the reset in that
 * zone, waits with it in its status, resumes the session and completes. A text whose reset
 * cannot be read is still a limit with no known reset: a backoff from 15 min, here beyond
 * max_wait, so exit 69.
 */

const CLAUDE = ['claude', '-p', 'the task', '--output-format', 'stream-json', '--verbose'];

function run(t: { after(fn: () => void): void }, extraEnv: NodeJS.ProcessEnv) {
  const dir = tempDir(t);
  const database = join(dir, 'deadman.db');
  const config = join(dir, 'deadman.toml');
  writeFileSync(config, '[usage_limit]\nmax_wait = "2min"\njitter = "0s"\n');
  const argvFile = join(dir, 'argv.jsonl');
  const result = runDeadman(
    [
      'run',
      '--config',
      config,
      '--database',
      database,
      '--adapter',
      'claude',
      '--poll',
      '200ms',
      '--stop-grace',
      '2s',
      '--',
      process.execPath,
      fakeAgent,
      ...CLAUDE,
    ],
    {
      env: {
        ...process.env,
        STATE_DIRECTORY: dir,
        NOTIFY_SOCKET: '',
        FAKE_AGENT_SCENARIO: 'usage-limit-text',
        FAKE_AGENT_LIMIT_RESET_S: '3',
        FAKE_AGENT_ARGV_LOG: argvFile,
        ...extraEnv,
      },
      cwd: dir,
    },
  );
  return { result, database, argvFile };
}

/** "7:35pm" in Asia/Kolkata (UTC+5:30, no DST) as UTC minutes of the day. */
function kolkataToUtcMinutes(time: string): number {
  const [, h, m, half] = /^(\d{1,2}):(\d\d)(am|pm)$/.exec(time)!;
  const local = ((Number(h) % 12) + (half === 'pm' ? 12 : 0)) * 60 + Number(m);
  return (local - 330 + 1440) % 1440;
}

test('claude: only "You\'ve hit your limit · resets <time> (<zone>)" → the run waits for that time, then resumes and completes', async (t) => {
  const { result: running, database, argvFile } = run(t, {});
  const result = await running;
  assert.equal(result.code, 0, result.stderr);
  assert.doesNotMatch(result.stdout, /rate_limit_event/, 'the agent said it only in words');
  const said = /resets (\d{1,2}:\d\d[ap]m) \(Asia\/Kolkata\)/.exec(result.stdout);
  assert.ok(said, result.stdout);
  const status = /waiting for usage limit reset at (\d\d):(\d\d)(?::\d\d)? UTC/.exec(result.stderr);
  assert.ok(status, result.stderr);
  const waitedFor = Number(status[1]) * 60 + Number(status[2]);
  const reset = kolkataToUtcMinutes(said[1]!);
  // The text has minute precision: the wait ends at that minute, or now when the minute has begun.
  assert.ok(
    waitedFor === reset || waitedFor === (reset + 1) % 1440,
    `the reset read in Asia/Kolkata (${said[1]} → ${reset} min UTC) is the one waited for: ${status[0]}`,
  );
  const [first, resumed] = argvLog(argvFile);
  assert.ok(first && !first.includes('--resume'));
  assert.ok(resumed?.includes('--resume'), `resumed through the revive path: ${JSON.stringify(resumed)}`);
  assert.deepEqual(
    query<{ outcome: string }>(database, 'SELECT outcome FROM runs ORDER BY id').map((r) => r.outcome),
    ['usage-limit', 'completed'],
  );
  assert.deepEqual(
    query<{ kind: string; state: string }>(database, 'SELECT kind, state FROM incidents').map((r) => ({ ...r })),
    [{ kind: 'USAGE_LIMIT', state: 'RESOLVED' }],
  );
});

test('claude: a limit text with a reset that cannot be read → no reset time → a 15 min backoff, beyond max_wait (2min) → exit 69', async (t) => {
  const { result: running, database } = run(t, { FAKE_AGENT_LIMIT_TEXT: "You've hit your limit · resets soon" });
  const result = await running;
  assert.equal(result.code, 69, result.stderr);
  assert.match(
    result.stderr,
    /USAGE_LIMIT: not waiting, the agent gave no reset time, and a backoff of 15min would pass usage_limit\.max_wait \(2min\) \(exit 69: do not restart; the next start resumes the session\)/,
  );
  assert.deepEqual(
    query<{ kind: string }>(database, 'SELECT kind FROM incidents').map((r) => r.kind),
    ['USAGE_LIMIT'],
  );
});
