import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { argvLog, FAKE_CODEX_COMMAND, killAgentLeftovers } from '../helpers/fake-agent.ts';

/**
 * Codex reports the thread's running total, earlier processes included. A fake Codex whose
 * every process completes one turn of 4 010 tokens, then crashes, is revived twice (three
 * `deadman run`s, as systemd would restart it) against budget.tokens = 10 000: each process is
 * charged its own 4 010, so SESSION_BUDGET_RISK is never raised — before the fix the second
 * resume's first total (12 030) was charged as one turn. The control: one fresh turn of
 * 12 010 tokens in the same setup is raised, so the runs were long enough to see it.
 */

function setup(t: { after(fn: () => void): void }) {
  const dir = tempDir(t);
  const sessions = join(dir, 'sessions');
  mkdirSync(sessions);
  writeFileSync(join(dir, 'deadman.toml'), '[budget]\ntokens = 10000\n');
  const log = join(dir, 'argv.jsonl');
  const database = join(dir, 'state', 'deadman.db');
  const run = async (tokens: number) => {
    const result = await runDeadman(
      [
        'run',
        '--config',
        join(dir, 'deadman.toml'),
        '--name',
        'budget-job',
        '--adapter',
        'codex',
        '--poll',
        '100ms',
        ...FAKE_CODEX_COMMAND,
      ],
      {
        env: {
          ...process.env,
          STATE_DIRECTORY: join(dir, 'state'),
          NOTIFY_SOCKET: '',
          FAKE_AGENT_SCENARIO: 'turn-then-crash',
          FAKE_AGENT_ARGV_LOG: log,
          FAKE_AGENT_SESSION_DIR: sessions,
          FAKE_AGENT_TURN_TOKENS: String(tokens),
          FAKE_AGENT_LINGER_MS: '1500',
        },
        cwd: dir,
      },
    );
    await killAgentLeftovers(log);
    return result;
  };
  return { run, database, log };
}

const charged = (database: string) =>
  query<{ run_id: number; tokens: number }>(
    database,
    `SELECT e.run_id, SUM(json_extract(u.value, '$.usage.inputTokens') + json_extract(u.value, '$.usage.outputTokens')) AS tokens
     FROM events e, json_each(e.data, '$.events') u WHERE json_extract(u.value, '$.type') = 'usage' GROUP BY e.run_id ORDER BY e.run_id`,
  ).map((r) => r.tokens);

test('a Codex session resumed twice is charged per process, not its running total: SESSION_BUDGET_RISK is not raised early', async (t) => {
  const s = setup(t);
  const results = [await s.run(4000), await s.run(4000), await s.run(4000)];
  for (const result of results) {
    assert.equal(result.code, 137, result.stderr);
    assert.doesNotMatch(result.stderr, /SESSION_BUDGET_RISK/);
  }
  const argvs = argvLog(s.log);
  assert.deepEqual(
    argvs.map((argv) => argv.includes('resume')),
    [false, true, true],
    'the second and third processes resume the session',
  );
  assert.deepEqual(charged(s.database), [4010, 4010, 4010], 'each process is charged what it added');
  assert.deepEqual(query(s.database, "SELECT id FROM incidents WHERE kind = 'SESSION_BUDGET_RISK'"), []);
});

test('control: one fresh turn over the budget in the same setup is raised', async (t) => {
  const s = setup(t);
  const result = await s.run(12_000);
  assert.match(
    result.stderr,
    /SESSION_BUDGET_RISK: the session used 12010 tokens, at or over budget\.tokens \(10000\)/,
  );
  assert.deepEqual(charged(s.database), [12_010]);
});
