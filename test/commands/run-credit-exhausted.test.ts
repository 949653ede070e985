import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { argvLog, fakeAgent } from '../helpers/fake-agent.ts';
import { fixtureLines } from '../helpers/fixtures.ts';

/**
 * Spent credit end to end, with the lines codex-cli 0.171.0 and Claude Code 2.1.332 print
 * (agent-formats.md §F.1; Claude's result line with `"type"` after other keys), printed by the
 * fake agent before it exits 1 as both CLIs do: the run ends 69 with CREDIT_EXHAUSTED named,
 * one alert goes out (the run's fail, code credit_exhausted), `status` says credit_exhausted,
 * and the next start of the same command does not resume the session into the same wall.
 */

const AGENTS = {
  claude: {
    argv: ['claude', '-p', 'the task', '--output-format', 'stream-json', '--verbose'],
    fixture: 'claude-credit-too-low.jsonl',
    skip: 1,
    words: /Claude: the credit balance is too low \(billing_error\): no reset to wait for, a person must add credit/,
  },
  codex: {
    argv: ['codex', 'exec', '--json', 'the task'],
    fixture: 'codex-quota-exceeded.jsonl',
    skip: 2,
    words:
      /Codex: the account's credit or spend limit is spent \(quota exceeded\): no reset to wait for, a person must add credit/,
  },
};

for (const [adapter, agent] of Object.entries(AGENTS) as Array<
  [keyof typeof AGENTS, (typeof AGENTS)[keyof typeof AGENTS]]
>) {
  test(`${adapter}: spent credit → exit 69, CREDIT_EXHAUSTED named, one alert, status credit_exhausted, and no revive on the next start`, async (t) => {
    const dir = tempDir(t);
    const database = join(dir, 'deadman.db');
    const config = join(dir, 'deadman.toml');
    const alerts = join(dir, 'alerts.jsonl');
    writeFileSync(
      config,
      `[notify]\ncommand = ["/bin/sh", "-c", "cat >> ${alerts}; echo >> ${alerts}"]\ntimeout = "5s"\n`,
    );
    const linesFile = join(dir, 'credit.jsonl');
    // The fake agent's own init / thread line opens the session; the recorded lines follow it.
    writeFileSync(linesFile, `${fixtureLines('agents', agent.fixture).slice(agent.skip).join('\n')}\n`);
    const argvFile = join(dir, 'argv.jsonl');
    const run = () =>
      runDeadman(
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
          ...agent.argv,
        ],
        {
          env: {
            ...process.env,
            STATE_DIRECTORY: dir,
            NOTIFY_SOCKET: '',
            FAKE_AGENT_SCENARIO: 'usage-limit',
            FAKE_AGENT_LIMIT_LINES: linesFile,
            FAKE_AGENT_ARGV_LOG: argvFile,
          },
          cwd: dir,
        },
      );
    const first = await run();
    assert.equal(first.code, 69, first.stderr);
    assert.match(first.stderr, /CREDIT_EXHAUSTED: /);
    assert.match(first.stderr, agent.words);
    assert.deepEqual(query(database, 'SELECT outcome, exit_code, error_code FROM runs'), [
      { outcome: 'credit-exhausted', exit_code: 69, error_code: 'credit_exhausted' },
    ]);
    assert.deepEqual(query(database, 'SELECT kind, state FROM incidents'), [
      { kind: 'CREDIT_EXHAUSTED', state: 'RESOLVED' },
    ]);
    const sent = readFileSync(alerts, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { event: string; code: string; exit_code: number; reason: string });
    assert.deepEqual(
      sent.map((a) => [a.event, a.code, a.exit_code]),
      [['fail', 'credit_exhausted', 69]],
      'one alert',
    );
    assert.match(sent[0]!.reason, /a person must add credit/);

    const status = await runDeadman(['status', '--json', '--database', database], {
      env: { ...process.env, STATE_DIRECTORY: dir },
      cwd: dir,
    });
    assert.equal(status.code, 1, status.stderr);
    const [row] = JSON.parse(status.stdout) as Array<{ state: string; error_code: string; needs_attention: boolean }>;
    assert.deepEqual(
      [row!.state, row!.error_code, row!.needs_attention],
      ['credit_exhausted', 'credit_exhausted', true],
    );

    const report = await runDeadman(['report', 'latest', '--database', database], {
      env: { ...process.env, STATE_DIRECTORY: dir },
      cwd: dir,
    });
    assert.match(report.stdout, /CREDIT_EXHAUSTED/);
    assert.match(report.stdout, /add credit or raise the limit/);

    // Started again (by hand, a timer, a reboot): the session is not resumed into the same wall.
    const second = await run();
    assert.equal(second.code, 69, second.stderr);
    assert.doesNotMatch(second.stderr, /revived session/);
    const argvs = argvLog(argvFile);
    assert.equal(argvs.length, 2);
    assert.ok(
      argvs.every((argv) => !argv.includes('--resume') && !argv.includes('resume')),
      JSON.stringify(argvs),
    );
  });
}
