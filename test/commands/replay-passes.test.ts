import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { incidentSequences, query } from '../helpers/db.ts';
import { argvLog, fakeAgent } from '../helpers/fake-agent.ts';
import { parseTrace, type TraceEventOf } from '../../lib/core/session/trace.ts';

/**
 * `run --record` across passes: a live run whose incident starts a new agent process (a
 * repeated failure resumed with guidance, a usage limit waited out) leaves one trace holding
 * every pass, and its replay — from `/`, so nothing of the run's directory is read — shows the
 * signal sequence the live run recorded in its database and exits as the run did.
 */

const signalLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('signal: '))
    .map((l) => l.slice('signal: '.length));

async function recordRun(
  dir: string,
  cwd: string,
  scenario: Record<string, string>,
  flags: string[],
  agentArgs: string[],
) {
  const database = join(dir, 'deadman.db');
  const trace = join(dir, 'run.jsonl');
  const argvFile = join(dir, 'argv.jsonl');
  const live = await runDeadman(
    [
      'run',
      '--database',
      database,
      '--record',
      trace,
      '--poll',
      '200ms',
      '--stop-grace',
      '2s',
      ...flags,
      '--',
      process.execPath,
      fakeAgent,
      ...agentArgs,
    ],
    {
      env: { ...process.env, STATE_DIRECTORY: dir, NOTIFY_SOCKET: '', FAKE_AGENT_ARGV_LOG: argvFile, ...scenario },
      cwd,
    },
  );
  assert.equal(live.code, 0, live.stderr);
  const parsed = parseTrace(readFileSync(trace, 'utf8'));
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.problem);
  const replayed = await runDeadman(['replay', trace], { cwd: '/' });
  assert.equal(replayed.code, 0, replayed.stderr);
  const passes = parsed.trace.events.filter((e): e is TraceEventOf<'pass'> => e.type === 'pass');
  return { database, trace: parsed.trace, passes, argv: argvLog(argvFile), replayed };
}

test('a recorded repeated failure replays through both passes to the sequence the run recorded, its workspace read from the trace', async (t) => {
  const dir = tempDir(t);
  const repo = join(dir, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q'], { cwd: repo });
  const { database, trace, passes, argv, replayed } = await recordRun(
    dir,
    repo,
    { FAKE_AGENT_SCENARIO: 'repeat-failure' },
    ['--adapter', 'codex', '--auto-recover'],
    ['codex', 'exec', '--json', 'make the parser tests pass'],
  );
  const live = incidentSequences(database);
  assert.deepEqual(live, ['REPEATED_FAILURE → CANCEL_AND_RESUME → RESOLVED']);
  assert.deepEqual(signalLines(replayed.stdout), live);
  assert.match(replayed.stdout, /run recovered_and_resumed: deadman would exit 0\n$/);
  // The second agent process is in the trace as the run started it: the resume carrying the guidance.
  assert.equal(passes.length, 1);
  assert.equal(passes[0]!.why, 'cancel-resume');
  assert.deepEqual(passes[0]!.argv.slice(-6, -2), ['codex', 'exec', '--json', 'resume']);
  assert.deepEqual(passes[0]!.argv.slice(-6), argv[1], 'the recorded argv is the one the resumed agent got');
  assert.match(
    passes[0]!.argv.at(-1)!,
    /^deadman interrupted you: the command `.*parser\.test\.ts.*` failed the same way \d+ times in a row/,
  );
  assert.ok(
    trace.events.some((e) => e.type === 'workspace' && e.fingerprint !== null),
    'the git fingerprint is recorded',
  );
  // What the resumed session's verification saw of the work tree is recorded too, after the pass it belongs to.
  const resumedAnswers = trace.events.filter((e) => e.type === 'workspace' && e.resumed === true);
  assert.ok(
    resumedAnswers.length > 0 && trace.events.indexOf(resumedAnswers[0]!) > trace.events.indexOf(passes[0]!),
    JSON.stringify(resumedAnswers),
  );

  // The replay asks the trace, not this machine: a work tree that changed at every look breaks the streak.
  let changes = 0;
  const moved = readFileSync(join(dir, 'run.jsonl'), 'utf8').replace(
    /"fingerprint":"[0-9a-f]+"/g,
    () => `"fingerprint":"${(changes += 1).toString(16).padStart(16, '0')}"`,
  );
  assert.ok(changes >= 2, `fingerprints recorded: ${changes}`);
  writeFileSync(join(dir, 'moved.jsonl'), moved);
  const changed = await runDeadman(['replay', join(dir, 'moved.jsonl')], { cwd: '/' });
  assert.ok(!changed.stdout.includes('REPEATED_FAILURE'), changed.stdout);
});

test('a recorded usage limit 2 s ahead replays the wait at the planned time and the resumed pass, to the sequence the run recorded', async (t) => {
  const dir = tempDir(t);
  const config = join(dir, 'deadman.toml');
  writeFileSync(config, '[usage_limit]\nmax_wait = "1min"\njitter = "500ms"\n');
  const { database, trace, passes, replayed } = await recordRun(
    dir,
    dir,
    { FAKE_AGENT_SCENARIO: 'usage-limit', FAKE_AGENT_LIMIT_RESET_S: '2' },
    ['--config', config, '--adapter', 'codex'],
    ['codex', 'exec', '--json', 'the task'],
  );
  const live = incidentSequences(database);
  assert.deepEqual(live, ['USAGE_LIMIT → WAIT_FOR_USAGE_RESET → RESOLVED']);
  assert.deepEqual(
    query<{ outcome: string }>(database, 'SELECT outcome FROM runs ORDER BY id').map((r) => r.outcome),
    ['usage-limit', 'completed'],
  );
  assert.deepEqual(signalLines(replayed.stdout), live);
  const wait = trace.events.find((e): e is TraceEventOf<'usage_wait'> => e.type === 'usage_wait');
  assert.ok(wait && wait.resume_at !== null && wait.resume_at > wait.at, JSON.stringify(wait));
  assert.equal(passes.length, 1);
  assert.equal(passes[0]!.why, 'usage-limit');
  assert.ok(
    passes[0]!.at >= wait.resume_at! - 50,
    `the next pass started at the planned time: ${passes[0]!.at} vs ${wait.resume_at}`,
  );
  assert.match(
    replayed.stdout,
    /USAGE_LIMIT: waiting for the reset; the session resumes at \d:\d\d\.\d\n {2}\d:\d\d\.\d {2}pass 2 \(usage-limit\) pid \d+: .* resume /,
  );
  assert.match(replayed.stdout, /run completed: deadman would exit 0\n$/);
});

test("a recorded over-budget session replays its respawn: the fresh pass carries the handoff, and the sequence is the run's", async (t) => {
  const dir = tempDir(t);
  const config = join(dir, 'deadman.toml');
  writeFileSync(config, '[budget]\ntokens = 10000\n');
  const { database, passes, argv, replayed } = await recordRun(
    dir,
    dir,
    { FAKE_AGENT_SCENARIO: 'over-budget' },
    ['--config', config, '--adapter', 'codex', '--auto-recover'],
    ['codex', 'exec', '--json', 'make the parser tests pass'],
  );
  const live = incidentSequences(database);
  assert.deepEqual(live, ['SESSION_BUDGET_RISK → CHECKPOINT_AND_RESPAWN → RESOLVED']);
  assert.deepEqual(signalLines(replayed.stdout), live);
  assert.equal(passes.length, 1);
  assert.equal(passes[0]!.why, 'respawn');
  assert.deepEqual(passes[0]!.argv.slice(-4), argv[1], 'the recorded argv is the one the fresh session got');
  assert.match(
    passes[0]!.argv.at(-1)!,
    /^make the parser tests pass\n\nA previous session on this task was ended by deadman \(the session used 50010 tokens.*, without the task above:\n\n## What was done/s,
  );
  assert.match(replayed.stdout, /pass 2 \(respawn\) pid \d+: /);
  assert.match(replayed.stdout, /run recovered_and_resumed: deadman would exit 0\n$/);
});
