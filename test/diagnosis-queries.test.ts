import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { repoRoot, runDeadman, tempDir } from './helpers/cli.ts';
import { fakeAgent, REPEATS_UNDER_LOAD } from './helpers/fake-agent.ts';

/**
 * Every SQL query in docs/diagnosis.md, run against the database real runs left behind: a hung
 * tool killed after a diagnostician's garbage answer, a command failing the same way in a git
 * work tree (resumed with guidance, then denied a second resume), an agent that finished and
 * did not exit, and a stall that recurs across a restart. Each query must run and answer with
 * the columns and rows the doc promises.
 */

type Row = Record<string, unknown>;

/** The doc's ```sql block as (question, statement) pairs: each statement follows its `--` comment. */
function documentedQueries(): Array<{ question: string; sql: string }> {
  const doc = readFileSync(join(repoRoot, 'docs', 'diagnosis.md'), 'utf8');
  const block = /```sql\n([\s\S]*?)```/.exec(doc)?.[1];
  assert.ok(block, 'docs/diagnosis.md has a ```sql block');
  return block.split(/\n\s*\n/).map((chunk) => {
    const lines = chunk.trim().split('\n');
    return {
      question: lines
        .filter((l) => l.startsWith('--'))
        .map((l) => l.slice(2).trim())
        .join(' '),
      sql: lines.filter((l) => !l.startsWith('--')).join('\n'),
    };
  });
}

async function recordRealRuns(t: { after(fn: () => void): void }): Promise<string> {
  const dir = tempDir(t);
  const database = join(dir, 'deadman.db');
  const env = {
    ...process.env,
    STATE_DIRECTORY: dir,
    NOTIFY_SOCKET: '',
    WATCHDOG_USEC: '',
    INVOCATION_ID: '',
    DEADMAN_CONFIG: '',
  };
  const run = async (args: string[], command: string[], extraEnv: NodeJS.ProcessEnv, cwd = dir) => {
    const result = await runDeadman(
      ['run', '--database', database, '--poll', '200ms', '--stop-grace', '1s', ...args, '--', ...command],
      { env: { ...env, ...extraEnv }, cwd },
    );
    return result.code;
  };
  const codex = [process.execPath, fakeAgent, 'codex', 'exec', '--json', 'make the parser tests pass'];
  const diagnose = join(dir, 'diagnose.sh');
  writeFileSync(diagnose, '#!/bin/sh\ncat > /dev/null\necho "I think you should restart"\n', { mode: 0o755 });
  writeFileSync(join(dir, 'hung.toml'), `[diagnose]\ncommand = ["${diagnose}"]\ntimeout = "2s"\n`);
  assert.equal(
    await run(
      [
        '--config',
        join(dir, 'hung.toml'),
        '--adapter',
        'codex',
        '--auto-recover',
        '--hung-timeout',
        '1s',
        '--inactivity',
        '4s',
      ],
      codex,
      { FAKE_AGENT_SCENARIO: 'hang-tool' },
    ),
    0,
  );
  const repo = join(dir, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q'], { cwd: repo });
  assert.equal(
    await run(
      ['--adapter', 'codex', '--auto-recover'],
      codex,
      { FAKE_AGENT_SCENARIO: 'repeat-failure', FAKE_AGENT_FAIL_RESUMED: '1', FAKE_AGENT_REPEATS: REPEATS_UNDER_LOAD },
      repo,
    ),
    0,
  );
  assert.equal(
    await run(
      ['--adapter', 'claude', '--exit-grace', '1s'],
      [process.execPath, fakeAgent, 'claude', '-p', 'task', '--output-format', 'stream-json', '--verbose'],
      { FAKE_AGENT_SCENARIO: 'finish-no-exit' },
    ),
    0,
  );
  for (let restart = 0; restart < 2; restart += 1)
    assert.equal(await run(['--name', 'loop', '--inactivity', '1s'], ['sleep', '30'], {}), 75);
  return database;
}

/** Per question (a word from its comment): the columns it answers with, and what its rows must show. */
const EXPECTED: Array<{ about: RegExp; columns: string[]; rows: (rows: Row[]) => void }> = [
  {
    about: /^Which signals opened incidents/,
    columns: ['id', 'kind', 'state', 'fingerprint', 'opened'],
    rows: (rows) =>
      assert.deepEqual(
        new Set(rows.map((r) => r.kind)),
        new Set(['HUNG_PROCESS', 'REPEATED_FAILURE', 'NO_PROGRESS', 'FINISHED_NOT_EXITED', 'OUTPUT_INACTIVITY']),
      ),
  },
  {
    about: /^The evidence a signal was raised on/,
    columns: ['kind', 'message', 'evidence'],
    rows: ([row]) =>
      assert.ok(
        row?.kind === 'HUNG_PROCESS' &&
          (JSON.parse(String(row.evidence)) as { processes: unknown[] }).processes.length > 0,
      ),
  },
  {
    about: /^What each diagnostician said/,
    columns: ['source', 'action', 'rationale', 'detail'],
    rows: (rows) =>
      assert.deepEqual(
        rows.map((r) => r.source),
        ['rules', 'external-refused'],
      ),
  },
  {
    about: /^How often external answers were refused/,
    columns: ['rationale', 'refused'],
    rows: ([row]) =>
      assert.ok(/did not answer a JSON object/.test(String(row?.rationale)) && row?.refused === 1, JSON.stringify(row)),
  },
  {
    about: /^What policy allowed/,
    columns: ['action', 'verdict', 'reason'],
    rows: (rows) =>
      assert.deepEqual(
        rows.map((r) => `${r.action} ${r.verdict}`),
        ['TERMINATE_DESCENDANT_PROCESS allow'],
      ),
  },
  {
    about: /^Actions policy would not take again/,
    columns: ['incident_id', 'kind', 'action', 'reason'],
    rows: (rows) =>
      assert.deepEqual(
        rows.map((r) => `${r.kind} ${r.action}`),
        ['REPEATED_FAILURE CANCEL_AND_RESUME'],
      ),
  },
  {
    about: /^What was done, to which target/,
    columns: ['kind', 'result', 'target', 'detail'],
    rows: ([row]) =>
      assert.ok(
        row?.kind === 'TERMINATE_DESCENDANT_PROCESS' && row.result === 'killed' && String(row.target).includes('sleep'),
        JSON.stringify(row),
      ),
  },
  {
    about: /^Whether it worked/,
    columns: ['verdict', 'detail'],
    rows: (rows) =>
      assert.deepEqual(
        rows.map((r) => r.verdict),
        ['RESOLVED'],
      ),
  },
  {
    about: /^The incident's whole path/,
    columns: ['at', 'from_state', 'to_state', 'reason'],
    rows: (rows) =>
      assert.deepEqual([rows[0]?.from_state, rows[0]?.to_state, rows.at(-1)?.to_state], [null, 'OPEN', 'RESOLVED']),
  },
  {
    about: /^Stalls that keep coming back/,
    columns: ['kind', 'fingerprint', 'recurrences'],
    // The resumed session failed the same way again: the same REPEATED_FAILURE incident, still unresolved, recurs.
    rows: (rows) =>
      assert.deepEqual(rows.map((r) => `${r.kind} ${r.recurrences}`).sort(), [
        'OUTPUT_INACTIVITY 1',
        'REPEATED_FAILURE 1',
      ]),
  },
  {
    about: /^Agents stopped for looping on one failure/,
    columns: ['id', 'message', 'guidance'],
    rows: (rows) =>
      assert.ok(
        rows.length === 1 && /failed the same way \d+ times in a row/.test(String(rows[0]!.guidance)),
        JSON.stringify(rows),
      ),
  },
  {
    about: /^Usage-limit waits/,
    columns: ['id', 'name', 'outcome', 'ended', 'revive_of'],
    rows: (rows) =>
      assert.deepEqual(
        rows.map((r) => [r.outcome, r.revive_of !== null]),
        [
          ['cancel-resume', false],
          ['completed', true],
        ],
      ),
  },
  {
    about: /^Agents that finished but did not exit/,
    columns: ['name', 'finished_not_exited'],
    rows: (rows) =>
      assert.deepEqual(
        rows.map((r) => r.finished_not_exited),
        [1],
      ),
  },
];

test('every SQL query in docs/diagnosis.md runs on a real database and answers its question', async (t) => {
  const database = await recordRealRuns(t);
  const db = new DatabaseSync(database, { readOnly: true });
  t.after(() => db.close());
  const hung = db.prepare("SELECT id FROM incidents WHERE kind = 'HUNG_PROCESS'").get() as { id: number };
  const queries = documentedQueries();
  assert.equal(
    queries.length,
    EXPECTED.length,
    `one expectation per documented query: ${queries.map((q) => q.question).join(' | ')}`,
  );
  for (const { question, sql } of queries) {
    const expected = EXPECTED.find((e) => e.about.test(question));
    assert.ok(expected, `an expectation for "${question}"`);
    const statement = db.prepare(sql);
    const rows = (sql.includes(':incident') ? statement.all({ incident: hung.id }) : statement.all()) as Row[];
    assert.deepEqual(
      statement.columns().map((c) => c.name),
      expected.columns,
      question,
    );
    expected.rows(rows);
  }
});
