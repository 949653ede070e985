import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { FAKE_CODEX_COMMAND } from '../helpers/fake-agent.ts';

/**
 * `deadman run` ends with the summary block (on a terminal or with --summary; one line elsewhere, run-quiet.test.ts): status, return code, event
 * counts, session, signal, action, policy, verification, database — or, with --summary-json, the
 * same as one JSON object on stderr.
 */

async function repeatedFailure(t: { after(fn: () => void): void }, extra: string[]) {
  const state = tempDir(t);
  const repo = join(state, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q'], { cwd: repo });
  const database = join(state, 'deadman.db');
  const result = await runDeadman(
    [
      'run',
      '--name',
      'parser',
      '--database',
      database,
      '--adapter',
      'codex',
      '--poll',
      '200ms',
      '--stop-grace',
      '2s',
      '--auto-recover',
      ...extra,
      ...FAKE_CODEX_COMMAND,
    ],
    {
      env: { ...process.env, STATE_DIRECTORY: state, NOTIFY_SOCKET: '', FAKE_AGENT_SCENARIO: 'repeat-failure' },
      cwd: repo,
    },
  );
  return { result, database };
}

test('the text block (--summary): every line of the summary, over both passes of a resumed run', async (t) => {
  const { result, database } = await repeatedFailure(t, ['--summary']);
  assert.equal(result.code, 0, result.stderr);
  const block = result.stderr.slice(result.stderr.indexOf('deadman: summary of run parser\n'));
  const expected = [
    /^deadman: summary of run parser$/,
    /^deadman: {3}status {8}recovered_and_resumed: exited 0$/,
    /^deadman: {3}return code {3}0$/,
    /^deadman: {3}events {8}\d+ \(.*tool_finished \d+.*\) over 2 pass\(es\)$/,
    /^deadman: {3}session {7}[0-9a-f-]{36}$/,
    /^deadman: {3}signal {8}#1 REPEATED_FAILURE: `.*parser\.test\.ts.*` failed the same way \d+ times/,
    /^deadman: {3}action {8}CANCEL_AND_RESUME$/,
    /^deadman: {3}policy {8}allow: auto_recover is on and the session can be resumed$/,
    /^deadman: {3}verification {2}RESOLVED: the resumed session completed a turn$/,
    new RegExp(`^deadman: {3}database {6}${database.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
  ];
  const lines = block.trimEnd().split('\n');
  assert.equal(lines.length, expected.length, block);
  expected.forEach((pattern, i) => assert.match(lines[i]!, pattern));
});

test('--summary-json: the same summary as one JSON object, the last line on stderr', async (t) => {
  const { result, database } = await repeatedFailure(t, ['--summary-json']);
  assert.equal(result.code, 0, result.stderr);
  const summary = JSON.parse(result.stderr.trimEnd().split('\n').at(-1)!) as Record<string, unknown> & {
    incident: Record<string, unknown>;
    events: Record<string, number>;
  };
  assert.equal(summary.status, 'recovered_and_resumed');
  assert.equal(summary.return_code, 0);
  assert.equal(summary.error_code, null);
  assert.equal(summary.passes, 2);
  assert.ok((summary.events.tool_finished ?? 0) >= 3);
  assert.equal(summary.database, database);
  assert.deepEqual(
    [summary.incident.kind, summary.incident.action, summary.incident.state],
    ['REPEATED_FAILURE', 'CANCEL_AND_RESUME', 'RESOLVED'],
  );
  assert.deepEqual(summary.incident.policy, {
    verdict: 'allow',
    reason: 'auto_recover is on and the session can be resumed',
  });
  assert.doesNotMatch(result.stderr, /summary of run [^\n]*\ndeadman: {3}status/, 'no text block as well');
});
