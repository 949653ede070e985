import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { argvLog, fakeAgent } from '../helpers/fake-agent.ts';
import { fixturePath } from '../helpers/fixtures.ts';

/**
 * "A failed turn is told it crashed": a Claude turn that fails on an API error (the recorded
 * result line of an HTTP 400, exit 1) is revived on the next start — as systemd's restart
 * would — with a prompt that says the turn failed and quotes the error, not "cut off by a
 * process exit (a crash, a restart or a watchdog)".
 */

const CLAUDE = ['claude', '-p', 'the task', '--output-format', 'stream-json', '--verbose'];

test('a turn that failed on an API error is revived as a failed turn, not as a crash', async (t) => {
  const dir = tempDir(t);
  const database = join(dir, 'deadman.db');
  const argvFile = join(dir, 'argv.jsonl');
  const start = () =>
    runDeadman(
      [
        'run',
        '--name',
        'failed-turn',
        '--database',
        database,
        '--adapter',
        'claude',
        '--poll',
        '200ms',
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
          FAKE_AGENT_SCENARIO: 'usage-limit',
          FAKE_AGENT_LIMIT_LINES: fixturePath('agents', 'claude-api-400-result.jsonl'),
          FAKE_AGENT_ARGV_LOG: argvFile,
        },
        cwd: dir,
      },
    );
  const first = await start();
  assert.equal(first.code, 1, first.stderr);
  const second = await start();
  assert.equal(second.code, 0, second.stderr);
  const resumed = argvLog(argvFile)[1]!;
  assert.ok(resumed.includes('--resume'), JSON.stringify(resumed));
  const prompt = resumed[resumed.indexOf('-p') + 1]!;
  assert.match(
    prompt,
    /^Your previous turn in this session failed with an error, not a crash: success: API Error: 400 mock bad request \(exit 1\)\./,
  );
  assert.doesNotMatch(prompt, /cut off by a process exit/);
  assert.match(prompt, /The original task was:\nthe task$/);
  assert.deepEqual(
    query<{ outcome: string; reason: string }>(database, 'SELECT outcome, reason FROM runs ORDER BY id').map(
      (r) => r.outcome,
    ),
    ['failed', 'completed'],
  );
});
