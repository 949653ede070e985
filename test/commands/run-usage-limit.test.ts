import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { argvLog, fakeAgent } from '../helpers/fake-agent.ts';

/**
 * USAGE_LIMIT end to end, in the agents' real formats: Claude's `rate_limit_event` rejected
 * with `resetsAt`, Codex's `usage_limit_reached` error with `resets_at`, each 3 s ahead. The
 * run waits in-process with the reset time in its status, then resumes the same session
 * through the revive path, and that resumed turn completes: exit 0.
 */

const AGENTS = {
  claude: ['claude', '-p', 'the task', '--output-format', 'stream-json', '--verbose'],
  codex: ['codex', 'exec', '--json', 'the task'],
};

for (const [adapter, args] of Object.entries(AGENTS)) {
  test(`${adapter}: a usage limit 3 s ahead → the run waits for the reset, then resumes the session and completes`, async (t) => {
    const dir = tempDir(t);
    const database = join(dir, 'deadman.db');
    const config = join(dir, 'deadman.toml');
    writeFileSync(config, '[usage_limit]\nmax_wait = "1min"\njitter = "500ms"\n');
    const argvFile = join(dir, 'argv.jsonl');
    const started = Date.now();
    const result = await runDeadman(
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
        ...args,
      ],
      {
        env: {
          ...process.env,
          STATE_DIRECTORY: dir,
          NOTIFY_SOCKET: '',
          FAKE_AGENT_SCENARIO: 'usage-limit',
          FAKE_AGENT_LIMIT_RESET_S: '3',
          FAKE_AGENT_ARGV_LOG: argvFile,
        },
        cwd: dir,
      },
    );
    const tookMs = Date.now() - started;
    assert.equal(result.code, 0, result.stderr);
    const status = /waiting for usage limit reset at (\d\d):(\d\d):?(\d\d)? UTC \(in (\d+)s\)/.exec(result.stderr);
    assert.ok(status, result.stderr);
    assert.ok(Number(status[4]) >= 1 && Number(status[4]) <= 4, `waits about 3 s: ${status[0]}`);
    assert.ok(tookMs >= 2_000, `resumed only after the reset (${tookMs} ms)`);
    const [first, resumed] = argvLog(argvFile);
    assert.ok(first && resumed, 'two agent processes: the limited one and the resume');
    assert.ok(!first.includes('resume') && !first.includes('--resume'));
    assert.ok(
      resumed.includes(adapter === 'codex' ? 'resume' : '--resume'),
      `resumed through the revive path: ${JSON.stringify(resumed)}`,
    );
    const runs = query<{ outcome: string; revive_of: string | null }>(
      database,
      'SELECT outcome, revive_of FROM runs ORDER BY id',
    );
    assert.deepEqual(
      runs.map((r) => r.outcome),
      ['usage-limit', 'completed'],
    );
    assert.deepEqual(
      query<{ kind: string; state: string }>(database, 'SELECT kind, state FROM incidents').map((r) => ({ ...r })),
      [{ kind: 'USAGE_LIMIT', state: 'RESOLVED' }],
    );
    assert.deepEqual(
      query<{ kind: string }>(database, 'SELECT kind FROM actions').map((r) => r.kind),
      ['WAIT_FOR_USAGE_RESET'],
    );
    assert.deepEqual(
      query<{ source: string }>(database, 'SELECT source FROM revives').map((r) => r.source),
      ['inline'],
    );
  });
}

test('a reset beyond usage_limit.max_wait: no wait, no restart — exit 69 with the reason', async (t) => {
  const dir = tempDir(t);
  const config = join(dir, 'deadman.toml');
  writeFileSync(config, '[usage_limit]\nmax_wait = "10s"\n');
  const result = await runDeadman(
    [
      'run',
      '--config',
      config,
      '--database',
      join(dir, 'deadman.db'),
      '--adapter',
      'claude',
      '--poll',
      '200ms',
      '--',
      process.execPath,
      fakeAgent,
      ...AGENTS.claude,
    ],
    {
      env: {
        ...process.env,
        STATE_DIRECTORY: dir,
        NOTIFY_SOCKET: '',
        FAKE_AGENT_SCENARIO: 'usage-limit',
        FAKE_AGENT_LIMIT_RESET_S: '7200',
      },
      cwd: dir,
    },
  );
  assert.equal(result.code, 69, result.stderr);
  assert.match(
    result.stderr,
    /USAGE_LIMIT: not waiting, the limit resets at \d\d:\d\d(:\d\d)? UTC, beyond usage_limit\.max_wait \(10s\) from now/,
  );
  // What the run came to (69), not its pass's 75, in every reader.
  const readers = { env: { ...process.env, DEADMAN_CONFIG: '', NOTIFY_SOCKET: '' }, cwd: dir };
  const status = await runDeadman(['status', '--json', '--database', join(dir, 'deadman.db')], readers);
  assert.equal(status.code, 1);
  const [row] = JSON.parse(status.stdout) as Array<{ state: string; exit_code: number }>;
  assert.deepEqual([row!.state, row!.exit_code], ['usage_limit', 69]);
  const metrics = await runDeadman(['metrics', '--database', join(dir, 'deadman.db')], readers);
  assert.match(metrics.stdout, /^deadman_last_exit_code\{name="[^"]+"\} 69$/m);
});
