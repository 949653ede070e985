import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { argvLog, FAKE_CODEX_COMMAND } from '../helpers/fake-agent.ts';

/**
 * SESSION_BUDGET_RISK end to end: a fake Codex reports a turn of 50 000 tokens (its own
 * telemetry) against budget.tokens = 10 000 and lingers. With --auto-recover deadman writes a
 * handoff under the state directory, stops the agent and starts a fresh session — not a
 * resume — with the task and the handoff; that session completes.
 */
test('usage past the budget → SESSION_BUDGET_RISK → CHECKPOINT_AND_RESPAWN with a handoff, then a fresh session', async (t) => {
  const dir = tempDir(t);
  const database = join(dir, 'deadman.db');
  const config = join(dir, 'deadman.toml');
  writeFileSync(config, '[budget]\ntokens = 10000\n');
  const argvFile = join(dir, 'argv.jsonl');
  const result = await runDeadman(
    [
      'run',
      '--config',
      config,
      '--database',
      database,
      '--adapter',
      'codex',
      '--auto-recover',
      '--poll',
      '200ms',
      '--stop-grace',
      '2s',
      ...FAKE_CODEX_COMMAND,
    ],
    {
      env: {
        ...process.env,
        STATE_DIRECTORY: dir,
        NOTIFY_SOCKET: '',
        FAKE_AGENT_SCENARIO: 'over-budget',
        FAKE_AGENT_ARGV_LOG: argvFile,
      },
      cwd: dir,
    },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    /SESSION_BUDGET_RISK: the session used 50010 tokens, at or over budget\.tokens \(10000\)/,
  );
  const [handoffName, ...others] = readdirSync(join(dir, 'handoffs'));
  assert.ok(handoffName && others.length === 0);
  const handoff = readFileSync(join(dir, 'handoffs', handoffName), 'utf8');
  assert.match(handoff, /^# Handoff: /);
  assert.match(handoff, /## Task\nmake the parser tests pass\n/);
  assert.ok(
    handoff.includes(
      `## What was done (from the event log)\nFiles changed:\n- \`${join(dir, 'src', 'parser.ts')}\`\n\nCommands run:\n`,
    ),
    handoff,
  );
  assert.match(
    handoff,
    /\nCommands run:\n- `\/bin\/bash -lc 'echo "FAIL parser\.test\.ts: expected 2 to equal 3"; exit 1'` → failed \(exit 1\)\n- turns completed: 1/,
  );
  assert.match(handoff, /## Last failure\n`.*` \(exit 1\):\n\n```\nFAIL parser\.test\.ts: expected 2 to equal 3\n```/);
  assert.match(handoff, /## Next step\nFix what made `.*parser\.test\.ts.*` fail/);
  const [first, fresh] = argvLog(argvFile);
  assert.ok(first && fresh);
  assert.ok(!fresh.includes('resume'), `a fresh session, not a resume: ${JSON.stringify(fresh.slice(0, 4))}`);
  assert.match(
    fresh.at(-1)!,
    /^make the parser tests pass\n\nA previous session on this task was ended by deadman \(the session used 50010 tokens/,
  );
  // The task once (it opens the prompt), then the handoff's state: everything after its "## Task" section.
  assert.ok(
    fresh.at(-1)!.endsWith(handoff.slice(handoff.indexOf('## What was done'))),
    "the prompt carries the handoff's state",
  );
  assert.equal(fresh.at(-1)!.split('make the parser tests pass').length - 1, 1, 'the task once');
  assert.deepEqual(
    query<{ kind: string; state: string }>(database, 'SELECT kind, state FROM incidents').map((r) => ({ ...r })),
    [{ kind: 'SESSION_BUDGET_RISK', state: 'RESOLVED' }],
  );
  assert.deepEqual(
    query<{ outcome: string }>(database, 'SELECT outcome FROM runs ORDER BY id').map((r) => r.outcome),
    ['respawn', 'recovered_and_resumed'],
  );
});
