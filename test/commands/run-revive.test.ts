import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, repoRoot, runDeadman, tempDir, waitFor } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { killAgentLeftovers } from '../helpers/fake-agent.ts';
import { wholeJsonLines } from '../helpers/json-lines.ts';

const fakeAgent = join(repoRoot, 'dist', 'lib', 'demo', 'fake-agent.js');

function setup(t: { after(fn: () => void): void }) {
  const dir = tempDir(t);
  const argvLog = join(dir, 'argv.jsonl');
  const env = { ...process.env, STATE_DIRECTORY: join(dir, 'state'), NOTIFY_SOCKET: '', FAKE_AGENT_ARGV_LOG: argvLog };
  const command = [
    process.execPath,
    fakeAgent,
    'codex',
    'exec',
    '--json',
    '-s',
    'workspace-write',
    '-C',
    dir,
    'fix the flaky test',
  ];
  const args = (...extra: string[]) => [
    'run',
    '--name',
    'fix-tests',
    '--adapter',
    'codex',
    '--poll',
    '250ms',
    ...extra,
    '--',
    ...command,
  ];
  const marker = () =>
    JSON.parse(readFileSync(join(dir, 'state', 'markers', 'fix-tests.json'), 'utf8')) as {
      state: string;
      reviveCount: number;
      sessionId: string | null;
    };
  const argvs = () => wholeJsonLines<string[]>(argvLog);
  const database = join(dir, 'state', 'deadman.db');
  const run = async (scenario: string) => {
    const result = await runDeadman(args(), { env: { ...env, FAKE_AGENT_SCENARIO: scenario }, cwd: dir });
    await killAgentLeftovers(argvLog);
    return result;
  };
  return { dir, env, args, marker, argvs, database, argvLog, run };
}

test('kill -9 of deadman mid-run: the next run resumes the same session with the original flags', async (t) => {
  const s = setup(t);
  const first = spawn(process.execPath, [deadmanBin, ...s.args()], {
    env: { ...s.env, FAKE_AGENT_SCENARIO: 'silent' },
    cwd: s.dir,
    stdio: 'ignore',
  });
  const sessionId = await waitFor(
    () => existsSync(join(s.dir, 'state', 'markers', 'fix-tests.json')) && s.marker().sessionId,
    5000,
    'the session id in the marker',
  );
  const agentPid = Number(readFileSync(`/proc/${first.pid}/task/${first.pid}/children`, 'utf8').trim().split(' ')[0]);
  process.kill(first.pid!, 'SIGKILL');
  process.kill(agentPid, 'SIGKILL');
  await new Promise((r) => first.on('exit', r));
  assert.equal(s.marker().state, 'running', 'the marker outlives its owner');

  const second = await s.run('crash');
  assert.equal(second.code, 137, second.stderr);
  assert.match(second.stderr, new RegExp(`revived session ${sessionId} \\(1/5\\)`));
  const resumed = s.argvs().at(-1)!;
  assert.deepEqual(resumed.slice(0, 9), [
    'codex',
    'exec',
    '--json',
    '-s',
    'workspace-write',
    '-C',
    s.dir,
    'resume',
    sessionId,
  ]);
  assert.match(resumed[9]!, /cut off[\s\S]*fix the flaky test/);
  assert.equal(s.marker().reviveCount, 1);
  assert.equal(s.marker().state, 'interrupted');
});

test('six crashes in a row: five revives, then exit 69 with an escalated incident; a completion resets the count', async (t) => {
  const s = setup(t);
  const codes: number[] = [];
  for (let i = 0; i < 7; i++) codes.push((await s.run('crash')).code!);
  assert.deepEqual(codes, [137, 137, 137, 137, 137, 137, 69]);
  assert.equal(s.argvs().filter((argv) => argv.includes('resume')).length, 5);
  assert.equal(s.marker().state, 'exhausted');
  const [halt] = query<{ kind: string; state: string }>(
    s.database,
    "SELECT kind, state FROM incidents WHERE kind = 'HALT_AND_ESCALATE'",
  );
  assert.deepEqual({ ...halt }, { kind: 'HALT_AND_ESCALATE', state: 'ESCALATED' });
  assert.equal(query(s.database, 'SELECT id FROM revives').length, 5);

  // An exhausted marker is a person's to restart: the next start is fresh, and a completion resets.
  assert.equal((await s.run('crash')).code, 137);
  assert.equal((await s.run('complete')).code, 0);
  assert.equal(s.marker().state, 'completed');
  assert.equal(s.marker().reviveCount, 0);
  assert.equal((await s.run('crash')).code, 137);
  assert.equal((await s.run('crash')).code, 137);
  assert.equal(s.marker().reviveCount, 1, 'after a completion the budget starts over: this revive is 1 of 5 again');
  assert.match(readFileSync(join(s.dir, 'argv.jsonl'), 'utf8').trim().split('\n').at(-1)!, /"resume"/);
});

test('adapter auto: an agent behind a wrapper script is recognised from its first event', async (t) => {
  const dir = tempDir(t);
  const database = join(dir, 'deadman.db');
  const result = await runDeadman(
    [
      'run',
      '--database',
      database,
      '--',
      'sh',
      '-c',
      `exec "${process.execPath}" "${fakeAgent}" codex exec --json "wrapped"`,
    ],
    {
      env: {
        ...process.env,
        STATE_DIRECTORY: dir,
        NOTIFY_SOCKET: '',
        FAKE_AGENT_SESSION_ID: '01a23013-27f3-73e2-b3cb-86b68ffb84d0',
      },
      cwd: dir,
    },
  );
  assert.equal(result.code, 0, result.stderr);
  const [run] = query<{ session_id: string; adapter: string }>(database, 'SELECT session_id, adapter FROM runs');
  assert.deepEqual({ ...run }, { session_id: '01a23013-27f3-73e2-b3cb-86b68ffb84d0', adapter: 'codex' });
  assert.ok(
    query<{ kind: string }>(database, 'SELECT kind FROM events').some((e) => e.kind.includes('turn_completed')),
  );
});

test('Claude: a turn completed inside a revived run sets the count back to 0; crashes without one keep counting', async (t) => {
  const dir = tempDir(t);
  const argvLog = join(dir, 'argv.jsonl');
  const env = { ...process.env, STATE_DIRECTORY: join(dir, 'state'), NOTIFY_SOCKET: '', FAKE_AGENT_ARGV_LOG: argvLog };
  const command = [
    process.execPath,
    fakeAgent,
    'claude',
    '-p',
    'fix the flaky test',
    '--output-format',
    'stream-json',
    '--verbose',
  ];
  const run = async (scenario: string) => {
    const result = await runDeadman(
      ['run', '--name', 'fix-tests', '--adapter', 'claude', '--poll', '250ms', '--', ...command],
      { env: { ...env, FAKE_AGENT_SCENARIO: scenario }, cwd: dir },
    );
    await killAgentLeftovers(argvLog);
    return result;
  };
  const marker = () =>
    JSON.parse(readFileSync(join(dir, 'state', 'markers', 'fix-tests.json'), 'utf8')) as {
      state: string;
      reviveCount: number;
    };
  for (const attempt of [0, 1, 2]) {
    const crashed = await run('crash');
    assert.equal(crashed.code, 137, crashed.stderr);
    if (attempt > 0) assert.match(crashed.stderr, new RegExp(`revived session \\S+ \\(${attempt}/5\\)`));
  }
  assert.equal(marker().reviveCount, 2, 'crashes without a completed turn are consecutive');
  const healed = await run('turn-then-crash');
  assert.equal(healed.code, 137, healed.stderr);
  assert.match(healed.stderr, /revived session \S+ \(3\/5\)/);
  assert.deepEqual(
    [marker().state, marker().reviveCount],
    ['interrupted', 0],
    'its result event (success) reset the count; the next turn was cut off',
  );
  const next = await run('crash');
  assert.match(next.stderr, /revived session \S+ \(1\/5\)/, 'the budget counts from the completed turn');
});

test("Ctrl-C at a terminal is a person's stop: the next run starts fresh; SIGTERM (a reboot's stop) is revived", async (t) => {
  for (const [signal, revived] of [
    ['SIGINT', false],
    ['SIGTERM', true],
  ] as const) {
    const s = setup(t);
    const first = spawn(process.execPath, [deadmanBin, ...s.args()], {
      env: { ...s.env, FAKE_AGENT_SCENARIO: 'silent' },
      cwd: s.dir,
      stdio: 'ignore',
    });
    await waitFor(
      () => existsSync(join(s.dir, 'state', 'markers', 'fix-tests.json')) && s.marker().sessionId,
      5000,
      'the session id in the marker',
    );
    process.kill(first.pid!, signal);
    await new Promise((r) => first.on('exit', r));
    assert.equal(s.marker().state, revived ? 'interrupted' : 'completed', signal);
    const next = await s.run('complete');
    assert.equal(next.code, 0, next.stderr);
    assert.equal(/revived session/.test(next.stderr), revived, `${signal}: ${next.stderr}`);
    assert.equal(s.argvs().at(-1)!.includes('resume'), revived);
  }
});
