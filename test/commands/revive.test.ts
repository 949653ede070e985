import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { markCompleted, markInterrupted, type Marker } from '../../lib/core/revive/marker.ts';
import { interruptedCodex as interruptedMarker } from '../helpers/revive-markers.ts';
import { currentOwner, markerPath, readMarker, writeMarker } from '../../lib/io/revive/markers.ts';
import { ExitCode } from '../../lib/exit-codes.ts';
import { runDeadman, tempDir, waitFor } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { argvLog, killToolsOf, processesWithEnv } from '../helpers/fake-agent.ts';
import { INTERRUPTED_FRESH, layOutSessions } from '../helpers/session-fixtures.ts';
import { readProcStat } from '../../lib/io/process/process-identity.ts';
import { isZombie } from '../../lib/core/process/owned-tree.ts';

const ID = '01a23100-0000-7000-8000-0000000000aa';
const MIN = 60_000;

interface Setup {
  dir: string;
  config: string;
  markers: string;
  database: string;
  argvLog: string;
  env: NodeJS.ProcessEnv;
}

function setup(t: { after(fn: () => void): void }, extraToml = ''): Setup {
  const dir = tempDir(t);
  const config = join(dir, 'deadman.toml');
  writeFileSync(
    config,
    `state_dir = ${JSON.stringify(join(dir, 'state'))}\n[revive]\ndelay = "0"\nmax_age = "1h"\nstart_timeout = "10s"\n${extraToml}`,
  );
  const log = join(dir, 'argv.log');
  return {
    dir,
    config,
    markers: join(dir, 'state', 'markers'),
    database: join(dir, 'state', 'deadman.db'),
    argvLog: log,
    // No manager environment: the hook's supervising run is the detached fallback.
    env: {
      ...process.env,
      FAKE_AGENT_ARGV_LOG: log,
      HOME: dir,
      NOTIFY_SOCKET: '',
      DEADMAN_CONFIG: '',
      INVOCATION_ID: '',
      MANAGERPID: '',
    },
  };
}

/** A codex run of the fake agent that was interrupted `ago` ms before now. */
const interruptedCodex = (s: Setup, name: string, ago = MIN, sessionId = ID): Marker =>
  interruptedMarker(s.dir, name, ago, sessionId);

/** The crash scenario leaves its tool running, carrying the run tag: the session is not revivable until it is gone. */
async function killLeftoverTools(): Promise<void> {
  killToolsOf(ID);
  await waitFor(
    () => processesWithEnv('CODEX_THREAD_ID', ID).length === 0,
    5000,
    "the crashed agent's tool to be gone",
  );
}

const revive = (s: Setup, args: string[] = [], env: NodeJS.ProcessEnv = {}) =>
  runDeadman(['revive', '--config', s.config, ...args], { env: { ...s.env, ...env }, cwd: s.dir });

/** The hook, then the end of every supervising `deadman run` it started (their pids are in its log lines). */
async function reviveAndSettle(
  s: Setup,
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<Awaited<ReturnType<typeof revive>>> {
  const result = await revive(s, args, env);
  for (const [, pid] of result.stderr.matchAll(/supervised by deadman run pid (\d+), detached/g)) {
    await waitFor(() => !isAlive(Number(pid)), 20_000, `the supervising deadman run (pid ${pid}) to end`);
  }
  return result;
}

function isAlive(pid: number): boolean {
  const stat = readProcStat(pid);
  return stat !== null && !isZombie(stat);
}

test('--dry-run over Codex rollouts and Claude transcripts lists exactly the interrupted, fresh, root sessions', async (t) => {
  const s = setup(t);
  const dirs = layOutSessions(join(s.dir, 'agents'), Date.now());
  writeFileSync(
    s.config,
    `${readFileSync(s.config, 'utf8')}session_files = ["codex", "claude"]\ncodex_home = ${JSON.stringify(dirs.codexHome)}\nclaude_config_dir = ${JSON.stringify(dirs.claudeConfigDir)}\n`,
  );
  const result = await revive(s, ['--dry-run', '--json']);
  assert.equal(result.code, 0, result.stderr);
  const rows = JSON.parse(result.stdout) as Array<{
    action: string;
    session_id: string;
    source: string;
    argv: string[];
  }>;
  assert.deepEqual(
    rows
      .filter((r) => r.action === 'revive')
      .map((r) => r.session_id)
      .sort(),
    [...INTERRUPTED_FRESH].sort(),
  );
  assert.deepEqual(
    rows.map((r) => r.action),
    ['revive', 'revive'],
    'nothing else is listed: not the sessions a person stopped',
  );
  const codex = rows.find((r) => r.session_id === '01a23013-d203-7e73-a729-ad3fd664d058')!;
  assert.equal(codex.source, 'codex-session');
  assert.deepEqual(codex.argv.slice(0, 11), [
    'codex',
    'exec',
    '--json',
    '--skip-git-repo-check',
    '-s',
    'workspace-write',
    '-m',
    'gpt-5.1-codex',
    '-C',
    '/srv/exp/work',
    'resume',
  ]);
  assert.match(codex.argv.at(-1)!, /cut off by a process exit[\s\S]*The original task was:\nhang please$/);
  assert.equal(existsSync(join(s.dir, 'state')), false, 'a dry run creates nothing');
  const text = await revive(s, ['--dry-run']);
  assert.equal(text.stdout.trim().split('\n').length, 2);
  assert.match(
    text.stdout,
    /codex-01a23013-d203-7e73-a729-ad3fd664d058: would revive session 01a23013-d203-7e73-a729-ad3fd664d058 \(1\/5\) \(found in Codex session files\): codex exec --json/,
  );
});

test('only the interrupted, fresh marker is revived, by a detached supervising deadman run; completed, stale, owned and damaged markers are not touched', async (t) => {
  const s = setup(t);
  t.after(() => killToolsOf(ID));
  writeMarker(s.markers, interruptedCodex(s, 'agent'));
  writeMarker(s.markers, markCompleted(interruptedCodex(s, 'done', MIN, `${ID}1`), Date.now()));
  writeMarker(s.markers, interruptedCodex(s, 'stale', 2 * 60 * MIN, `${ID}2`));
  writeMarker(s.markers, { ...interruptedCodex(s, 'owned', MIN, `${ID}3`), state: 'running', owner: currentOwner() });
  writeFileSync(markerPath(s.markers, 'cut'), JSON.stringify(interruptedCodex(s, 'cut')).slice(0, 90));
  const untouched = ['done', 'stale', 'owned', 'cut'].map((name) => readFileSync(markerPath(s.markers, name), 'utf8'));

  const result = await reviveAndSettle(s, ['--json']);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(argvLog(s.argvLog), [
    ['codex', 'exec', '--json', '-s', 'workspace-write', '-C', s.dir, 'resume', ID, argvLog(s.argvLog)[0]!.at(-1)!],
  ]);
  assert.match(
    argvLog(s.argvLog)[0]!.at(-1)!,
    /^Your previous run in this session was cut off by a process exit[\s\S]*\n\nThe original task was:\nwrite the report$/,
  );
  const warnings = result.stderr.split('\n').filter((line) => line.includes('revive marker'));
  assert.equal(warnings.length, 1, result.stderr);
  assert.match(warnings[0]!, /cut\.json is cut short or not JSON; not reviving "cut"/);
  assert.match(
    result.stderr,
    new RegExp(`revived session ${ID} \\(1/5\\) — agent, supervised by deadman run pid \\d+, detached, output in `),
  );
  assert.deepEqual(
    ['done', 'stale', 'owned', 'cut'].map((name) => readFileSync(markerPath(s.markers, name), 'utf8')),
    untouched,
  );
  const row = (JSON.parse(result.stdout) as Array<{ name: string; log: string }>).find((r) => r.name === 'agent')!;
  assert.match(
    readFileSync(row.log, 'utf8'),
    new RegExp(`revived session ${ID} \\(1/5\\)`),
    "the run's own output is in the log",
  );

  const read = await readMarker(s.markers, 'agent');
  assert.ok(read.status === 'ok');
  assert.deepEqual(
    [read.marker.state, read.marker.reviveCount, read.marker.sessionId],
    ['completed', 0, ID],
    'the resumed turn ran to completion under deadman run',
  );
  assert.notEqual(read.marker.owner?.pid, 999_999);
  assert.deepEqual(
    query(s.database, 'SELECT name, session_id, attempt, budget FROM revives'),
    [{ name: 'agent', session_id: ID, attempt: 1, budget: 5 }],
    'counted once',
  );
  assert.deepEqual(query(s.database, "SELECT name, revive_of, exit_code FROM runs WHERE name = 'agent'"), [
    { name: 'agent', revive_of: ID, exit_code: 0 },
  ]);
});

test('six interruptions in a row: five supervised revives, then DO_NOT_RESTART with an escalated incident', async (t) => {
  const s = setup(t);
  t.after(() => killToolsOf(ID));
  writeMarker(s.markers, interruptedCodex(s, 'agent'));
  const crash = { FAKE_AGENT_SCENARIO: 'crash' };
  for (let attempt = 1; attempt <= 5; attempt++) {
    const result = await reviveAndSettle(s, [], crash);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, new RegExp(`revived session ${ID} \\(${attempt}/5\\)`));
    await killLeftoverTools();
  }
  const refused = await revive(s, [], crash);
  assert.equal(refused.code, ExitCode.DO_NOT_RESTART, refused.stderr);
  assert.match(refused.stdout, /agent: stopped, revive budget spent/);
  assert.equal(argvLog(s.argvLog).length, 5);
  assert.ok(argvLog(s.argvLog).every((argv) => argv.includes('resume') && argv[argv.indexOf('resume') + 1] === ID));
  const read = await readMarker(s.markers, 'agent');
  assert.ok(read.status === 'ok');
  assert.deepEqual([read.marker.state, read.marker.reviveCount], ['exhausted', 5]);
  assert.deepEqual(
    query<{ attempt: number }>(s.database, 'SELECT attempt FROM revives ORDER BY id').map((r) => r.attempt),
    [1, 2, 3, 4, 5],
  );
  assert.deepEqual(
    query(
      s.database,
      `SELECT i.kind, i.state, r.name, r.outcome, r.exit_code FROM incidents i JOIN runs r ON r.id = i.run_id WHERE i.kind = 'HALT_AND_ESCALATE'`,
    ),
    [
      {
        kind: 'HALT_AND_ESCALATE',
        state: 'ESCALATED',
        name: 'agent',
        outcome: 'revive-exhausted',
        exit_code: ExitCode.DO_NOT_RESTART,
      },
    ],
  );
  const again = await revive(s);
  assert.equal(again.code, 0, 'an exhausted marker is left for a person; the hook does not fail again and again');
});

test('a completion in between resets the count', async (t) => {
  const s = setup(t);
  t.after(() => killToolsOf(ID));
  writeMarker(s.markers, interruptedCodex(s, 'agent'));
  for (let attempt = 1; attempt <= 3; attempt++) {
    assert.equal((await reviveAndSettle(s, [], { FAKE_AGENT_SCENARIO: 'crash' })).code, 0);
    await killLeftoverTools();
  }
  assert.match((await reviveAndSettle(s, [], { FAKE_AGENT_SCENARIO: 'complete' })).stderr, /\(4\/5\)/);
  const after = await revive(s, ['--dry-run', '--json']);
  assert.deepEqual(
    JSON.parse(after.stdout).map((r: { action: string; reason: string }) => [r.action, r.reason]),
    [['skip', 'the last run completed']],
  );
  const settled = await readMarker(s.markers, 'agent');
  assert.ok(settled.status === 'ok');
  assert.deepEqual([settled.marker.state, settled.marker.reviveCount], ['completed', 0]);
  writeMarker(s.markers, markInterrupted(settled.marker, 'killed again', Date.now()));
  assert.match((await reviveAndSettle(s, [], { FAKE_AGENT_SCENARIO: 'crash' })).stderr, /\(1\/5\)/);
});

test('two hooks at once resume a session once', async (t) => {
  const s = setup(t);
  t.after(() => killToolsOf(ID));
  writeMarker(s.markers, interruptedCodex(s, 'agent'));
  const [a, b] = await Promise.all([reviveAndSettle(s, ['--json']), reviveAndSettle(s, ['--json'])]);
  assert.deepEqual([a.code, b.code], [0, 0], a.stderr + b.stderr);
  assert.equal(argvLog(s.argvLog).length, 1);
  const actions = [a, b]
    .flatMap((r) => (JSON.parse(r.stdout) as Array<{ action: string }>).map((row) => row.action))
    .sort();
  assert.deepEqual(actions, ['revive', 'skip']);
  assert.equal(query(s.database, 'SELECT id FROM revives').length, 1);
});

test('a resume that cannot be launched spends nothing; one whose command is missing is counted by its run; --name limits the hook to one marker', async (t) => {
  const s = setup(t);
  const missing = { ...interruptedCodex(s, 'gone'), cwd: join(s.dir, 'deleted') };
  writeMarker(s.markers, missing);
  writeMarker(s.markers, {
    ...interruptedCodex(s, 'other', MIN, `${ID}9`),
    argv: ['/nonexistent/codex', 'exec', '--json', 'x'],
  });
  const one = await revive(s, ['--name', 'gone', '--json']);
  assert.equal(one.code, 0, one.stderr);
  const rows = JSON.parse(one.stdout) as Array<{ name: string; outcome: string }>;
  assert.deepEqual(
    rows.map((r) => [r.name, r.outcome]),
    [['gone', `failed: working directory ${join(s.dir, 'deleted')} does not exist`]],
  );
  const gone = await readMarker(s.markers, 'gone');
  assert.ok(gone.status === 'ok');
  assert.deepEqual(gone.marker, missing, 'the marker is put back as it was');
  const all = await reviveAndSettle(s, ['--json']);
  assert.match(
    (JSON.parse(all.stdout) as Array<{ name: string; outcome: string }>).find((r) => r.name === 'other')!.outcome,
    /^supervised pid \d+, detached/,
  );
  const other = await readMarker(s.markers, 'other');
  assert.ok(other.status === 'ok');
  assert.deepEqual([other.marker.state, other.marker.reviveCount], ['interrupted', 1]);
  assert.match(
    String(query<{ reason: string }>(s.database, "SELECT reason FROM runs WHERE name = 'other'")[0]?.reason),
    /nonexistent\/codex/,
  );
});
