import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, runDeadman, tempDir } from '../helpers/cli.ts';
import { incidentSequences } from '../helpers/db.ts';
import { parseTrace } from '../../lib/core/session/trace.ts';
import { shippedTraceNames } from '../../lib/io/session/trace-file.ts';

const fakeAgent = join(repoRoot, 'dist', 'lib', 'demo', 'fake-agent.js');
const signalLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('signal: '))
    .map((l) => l.slice('signal: '.length));

test('every shipped trace replays from / to the signals it expects and exits 0', async () => {
  const names = shippedTraceNames();
  assert.deepEqual(names, ['hung-process', 'repeated-failure', 'session-handoff', 'silence', 'usage-limit']);
  for (const name of names) {
    const finished = await runDeadman(['replay', name], { cwd: '/' });
    assert.equal(finished.code, 0, `${name}: ${finished.stderr}`);
    const expected = parseTrace(readFileSync(join(repoRoot, 'contrib', 'traces', `${name}.jsonl`), 'utf8'));
    assert.ok(expected.ok);
    assert.deepEqual(signalLines(finished.stdout), expected.trace.header.expect, name);
  }
  const hung = await runDeadman(['replay', 'hung-process'], { cwd: '/' });
  assert.match(hung.stdout, /HUNG_PROCESS: \/bin\/bash -lc npm test \(pid 101/);
  assert.match(hung.stdout, /TERMINATE_DESCENDANT_PROCESS killed \[101 102\] \(simulated\)/);
  assert.match(hung.stdout, /→ RESOLVED/);
  assert.match(hung.stdout, /run completed: deadman would exit 0/);
});

test('the agent-loop traces run their later passes through the pass loop: resumed with guidance, respawned, resumed after the wait', async () => {
  const [repeated, handoff, limit] = await Promise.all(
    ['repeated-failure', 'session-handoff', 'usage-limit'].map((name) => runDeadman(['replay', name], { cwd: '/' })),
  );
  assert.match(
    repeated!.stdout,
    /REPEATED_FAILURE: `\/bin\/bash -lc 'npx vitest run parser\.test\.ts'` failed the same way 3 times \(exit 1\) with no change to the workspace/,
  );
  assert.match(
    repeated!.stdout,
    /CANCEL_AND_RESUME: the session resumes, told: deadman interrupted you: the command `.*parser\.test\.ts.*` failed the same way 3 times in a row/,
  );
  assert.match(repeated!.stdout, /pass 2 \(cancel-resume\) pid 200: codex exec --json resume 0199a000-/);
  assert.match(
    handoff!.stdout,
    /SESSION_BUDGET_RISK: the session used 50010 tokens, at or over budget\.tokens \(40000\)/,
  );
  assert.match(
    handoff!.stdout,
    /pass 2 \(respawn\) pid 300: codex exec --json "make the parser tests pass\\n\\nA previous session/,
  );
  assert.match(
    limit!.stdout,
    /USAGE_LIMIT: waiting for the reset; the session resumes at 0:03\.7\n {2}0:03\.7 {2}pass 2 \(usage-limit\) pid 400: claude -p .* --resume 5d41402a-/,
  );
  // A resume or respawn is judged by the session after it: its completed turn makes the run recovered_and_resumed.
  for (const replayed of [repeated, handoff])
    assert.match(
      replayed!.stdout,
      /→ RESOLVED: the resumed session (?:completed a turn|got a different result)[\s\S]*run recovered_and_resumed: deadman would exit 0\n$/,
    );
  assert.match(limit!.stdout, /run completed: deadman would exit 0\n$/);
});

test('a trace whose expectation does not hold exits 1 and says what it showed; a missing one exits 64 naming the shipped ones', async (t) => {
  const dir = tempDir(t);
  const trace = join(dir, 'wrong.jsonl');
  writeFileSync(
    trace,
    readFileSync(join(repoRoot, 'contrib', 'traces', 'silence.jsonl'), 'utf8').replace(
      '"OUTPUT_INACTIVITY → ESCALATED"',
      '"OUTPUT_INACTIVITY → RESOLVED"',
    ),
  );
  const wrong = await runDeadman(['replay', trace]);
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, /expected \[OUTPUT_INACTIVITY → RESOLVED\] but showed \[OUTPUT_INACTIVITY → ESCALATED\]/);
  const missing = await runDeadman(['replay', join(dir, 'nope.jsonl')]);
  assert.equal(missing.code, 64);
  assert.match(
    missing.stderr,
    /^deadman: trace ".*nope.jsonl" not found: give a trace file or one of the shipped traces \(hung-process, repeated-failure, session-handoff, silence, usage-limit\)/,
  );
  writeFileSync(trace, '{"type":"header"}\n');
  const bad = await runDeadman(['replay', trace]);
  assert.equal(bad.code, 64);
  assert.match(bad.stderr, /^deadman: trace .*wrong.jsonl: line 1: /);
});

test('a live run recorded with --record replays to the same signal sequence the run recorded', async (t) => {
  const dir = tempDir(t);
  const database = join(dir, 'deadman.db');
  const trace = join(dir, 'run.jsonl');
  const env = {
    ...process.env,
    STATE_DIRECTORY: dir,
    NOTIFY_SOCKET: '',
    FAKE_AGENT_SCENARIO: 'hang-tool',
    FAKE_AGENT_TOOL: `sh -c 'sleep 600 & wait $!'`,
    SECRET_TOKEN: 'hunter2-very-secret',
  };
  const live = await runDeadman(
    [
      'run',
      '--database',
      database,
      '--record',
      trace,
      '--adapter',
      'codex',
      '--auto-recover',
      '--hung-timeout',
      '2s',
      '--kill-grace',
      '1s',
      '--poll',
      '250ms',
      '--',
      process.execPath,
      fakeAgent,
      'codex',
      'exec',
      '--json',
      'fix the tests hunter2-very-secret',
    ],
    { env, cwd: dir },
  );
  assert.equal(live.code, 0, live.stderr);
  const liveSequence = incidentSequences(database);
  assert.deepEqual(liveSequence, ['HUNG_PROCESS → TERMINATE_DESCENDANT_PROCESS → RESOLVED']);

  const text = readFileSync(trace, 'utf8');
  assert.ok(!text.includes('hunter2-very-secret'), 'the secret in the command line is redacted in the trace');
  const replayed = await runDeadman(['replay', trace], { cwd: '/' });
  assert.equal(replayed.code, 0, replayed.stderr);
  assert.deepEqual(signalLines(replayed.stdout), liveSequence);
  assert.match(replayed.stdout, /run completed: deadman would exit 0/);
});

test('a recorded pass is replayed whatever started it live, and the replay says when the loop decided otherwise', async (t) => {
  const trace = join(tempDir(t), 'edited.jsonl');
  writeFileSync(
    trace,
    readFileSync(join(repoRoot, 'contrib', 'traces', 'repeated-failure.jsonl'), 'utf8').replace(
      '"why": "cancel-resume"',
      '"why": "respawn"',
    ),
  );
  const replayed = await runDeadman(['replay', trace], { cwd: '/' });
  assert.equal(replayed.code, 0, replayed.stderr);
  assert.match(replayed.stdout, /pass 2 \(cancel-resume; the live run started it for respawn\) pid 200: /);
});
