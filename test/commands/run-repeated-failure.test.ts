import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { argvLog, FAKE_CODEX_COMMAND } from '../helpers/fake-agent.ts';

/**
 * REPEATED_FAILURE end to end: a fake Codex in a git work tree runs the same failing test
 * again and again (only a timestamp in its output changes) without touching a file. With
 * --auto-recover deadman interrupts it and resumes the session with guidance naming the
 * command and how it failed; the resumed turn completes.
 */

/** The agent's work tree (a git repo) and, outside it, deadman's state: its database must not count as a change. */
function gitRepo(t: { after(fn: () => void): void }): { dir: string; state: string } {
  const state = tempDir(t);
  const dir = join(state, 'repo');
  mkdirSync(dir);
  execFileSync('git', ['init', '-q'], { cwd: dir });
  return { dir, state };
}

async function runRepeating({ dir, state }: { dir: string; state: string }, extra: string[]) {
  const database = join(state, 'deadman.db');
  const argvFile = join(state, 'argv.jsonl');
  const result = await runDeadman(
    [
      'run',
      '--database',
      database,
      '--adapter',
      'codex',
      '--poll',
      '200ms',
      '--stop-grace',
      '2s',
      ...extra,
      ...FAKE_CODEX_COMMAND,
    ],
    {
      env: {
        ...process.env,
        STATE_DIRECTORY: state,
        NOTIFY_SOCKET: '',
        FAKE_AGENT_SCENARIO: 'repeat-failure',
        FAKE_AGENT_ARGV_LOG: argvFile,
      },
      cwd: dir,
    },
  );
  return { result, database, argv: argvLog(argvFile) };
}

test('3 identical failures, no workspace change → REPEATED_FAILURE → CANCEL_AND_RESUME → the resumed argv carries the guidance → RESOLVED', async (t) => {
  const { result, database, argv } = await runRepeating(gitRepo(t), ['--auto-recover']);
  assert.equal(result.code, 0, result.stderr);
  // Two failures may land in one poll: detected at the third or the fourth.
  const times =
    /REPEATED_FAILURE: `\/bin\/bash -lc '.*parser\.test\.ts.*'` failed the same way (\d+) times \(exit 1\) with no change to the workspace/.exec(
      result.stderr,
    );
  assert.ok(times && Number(times[1]) >= 3 && Number(times[1]) <= 5, result.stderr);
  assert.equal(argv.length, 2, JSON.stringify(argv));
  const resumed = argv[1]!;
  assert.deepEqual(resumed.slice(0, 4), ['codex', 'exec', '--json', 'resume']);
  const message = resumed.at(-1)!;
  assert.match(message, /the command `.*parser\.test\.ts.*` failed the same way \d+ times in a row \(exit 1\)/);
  assert.match(message, /Its output ended with:\nFAIL parser\.test\.ts: expected 2 to equal 3 at \d+/);
  assert.match(message, /The original task was:\nmake the parser tests pass$/);
  assert.deepEqual(
    query<{ kind: string; state: string }>(database, 'SELECT kind, state FROM incidents').map((r) => ({ ...r })),
    [{ kind: 'REPEATED_FAILURE', state: 'RESOLVED' }],
  );
  assert.deepEqual(
    query<{ kind: string }>(database, 'SELECT kind FROM actions').map((r) => r.kind),
    ['CANCEL_AND_RESUME'],
  );
  assert.deepEqual(
    query<{ outcome: string }>(database, 'SELECT outcome FROM runs ORDER BY id').map((r) => r.outcome),
    ['cancel-resume', 'recovered_and_resumed'],
  );
});

test('a resumed session that fails the same way again: the incident escalates (never RESOLVED at the interruption), and the run is not recovered_and_resumed', async (t) => {
  const repo = gitRepo(t);
  const database = join(repo.state, 'deadman.db');
  const result = await runDeadman(
    [
      'run',
      '--database',
      database,
      '--adapter',
      'codex',
      '--poll',
      '200ms',
      '--stop-grace',
      '2s',
      '--auto-recover',
      ...FAKE_CODEX_COMMAND,
    ],
    {
      env: {
        ...process.env,
        STATE_DIRECTORY: repo.state,
        NOTIFY_SOCKET: '',
        FAKE_AGENT_SCENARIO: 'repeat-failure',
        FAKE_AGENT_FAIL_RESUMED: '1',
      },
      cwd: repo.dir,
    },
  );
  assert.match(result.stderr, /incident 1 ESCALATED: the resumed session failed the same way again/);
  // Its further reruns are NO_PROGRESS as well; the repeated failure is one incident, recurring.
  const incidents = query<{ kind: string; state: string }>(
    database,
    "SELECT kind, state FROM incidents WHERE kind = 'REPEATED_FAILURE'",
  ).map((r) => ({ ...r }));
  assert.deepEqual(incidents, [{ kind: 'REPEATED_FAILURE', state: 'ESCALATED' }]);
  const path = query<{ to_state: string }>(
    database,
    'SELECT to_state FROM incident_transitions WHERE incident_id = 1 ORDER BY id',
  ).map((r) => r.to_state);
  assert.ok(!path.includes('RESOLVED'), `never resolved: ${path.join(' → ')}`);
  assert.ok(
    !query<{ outcome: string }>(database, 'SELECT outcome FROM runs').some(
      (r) => r.outcome === 'recovered_and_resumed',
    ),
  );
});

test('without --auto-recover the incident waits for approval and the agent goes on; its further reruns are NO_PROGRESS, recorded', async (t) => {
  const { result, database, argv } = await runRepeating(gitRepo(t), []);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(argv.length, 1, 'not interrupted, not resumed');
  assert.match(result.stderr, /AWAITING_APPROVAL: recovery is off: run with --auto-recover/);
  assert.deepEqual(
    query<{ kind: string; state: string }>(database, 'SELECT kind, state FROM incidents ORDER BY id').map((r) => ({
      ...r,
    })),
    [
      { kind: 'REPEATED_FAILURE', state: 'ABANDONED' },
      { kind: 'NO_PROGRESS', state: 'ABANDONED' },
    ],
  );
  assert.deepEqual(
    query<{ to_state: string }>(
      database,
      'SELECT to_state FROM incident_transitions WHERE incident_id = 1 ORDER BY id',
    ).map((r) => r.to_state),
    ['OPEN', 'AWAITING_APPROVAL', 'ABANDONED'],
    'each waited for a person until the run ended',
  );
  assert.match(
    result.stderr,
    /NO_PROGRESS: \d+ attempts in a row produced no new result and no change to the workspace; incident \d+ AWAITING_APPROVAL: recorded for a person/,
  );
  assert.deepEqual(query(database, 'SELECT id FROM actions'), [], 'nothing was done to the agent');
});
