import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { markExhausted, markInterrupted, newMarker, withSessionId, type Marker } from '../../lib/core/revive/marker.ts';
import { reviveMessage } from '../../lib/core/revive/resume-argv.ts';
import { writeMarker } from '../../lib/io/revive/markers.ts';
import { runDeadman, tempDir, waitFor } from '../helpers/cli.ts';
import { argvLog, fakeAgent, killToolsOf } from '../helpers/fake-agent.ts';

/**
 * `deadman revive` over markers and the agents' own session files (hand-made, of the real
 * shapes): where the file is newer it is the truth. A spent budget starts over after a
 * genuine user turn; a turn a person stopped (Codex turn_aborted, Claude "[Request interrupted
 * by user…]") is not revived, whatever the marker says.
 */

const MIN = 60_000;
const SPENT = '01a23100-0000-7000-8000-0000000000b1';
const ABORTED = '01a23100-0000-7000-8000-0000000000b2';
const ESCAPED = '01a23100-0000-7000-8000-0000000000b3';

const iso = (ago: number) => new Date(Date.now() - ago).toISOString();
const jsonl = (rows: object[]) => rows.map((row) => JSON.stringify(row)).join('\n') + '\n';

function rollout(id: string, cwd: string, events: Array<[number, object]>): string {
  const meta = { timestamp: iso(9 * MIN), type: 'session_meta', payload: { id, cwd, source: 'exec' } };
  return jsonl([meta, ...events.map(([ago, payload]) => ({ timestamp: iso(ago), type: 'event_msg', payload }))]);
}
const userTurn = (text: string) => ({
  type: 'item_completed',
  item: { type: 'UserMessage', content: [{ type: 'text', text }] },
});

function interrupted(
  name: string,
  adapter: 'codex' | 'claude',
  argv: string[],
  cwd: string,
  sessionId: string,
): Marker {
  const at = Date.now() - 10 * MIN;
  return markInterrupted(
    withSessionId(
      newMarker({ name, adapter, argv, cwd, owner: { pid: 999_999, startTime: 1 }, now: at }),
      sessionId,
      at,
    ),
    'exit 137',
    at,
  );
}

test('a spent budget is revived after a genuine user turn; turns a person stopped are not', async (t) => {
  const dir = tempDir(t);
  t.after(() => killToolsOf(SPENT));
  const codexHome = join(dir, 'codex');
  const claudeDir = join(dir, 'claude');
  const sessions = join(codexHome, 'sessions', '2026', '12', '01');
  mkdirSync(sessions, { recursive: true });
  mkdirSync(join(claudeDir, 'projects', '-w'), { recursive: true });
  const config = join(dir, 'deadman.toml');
  writeFileSync(
    config,
    [
      `state_dir = ${JSON.stringify(join(dir, 'state'))}`,
      '[revive]',
      'delay = "0"',
      'max_age = "1h"',
      'max_revives = 3',
      'start_timeout = "10s"',
      'session_files = ["codex", "claude"]',
      `codex_home = ${JSON.stringify(codexHome)}`,
      `claude_config_dir = ${JSON.stringify(claudeDir)}`,
      '',
    ].join('\n'),
  );
  const codexArgv = [
    process.execPath,
    fakeAgent,
    'codex',
    'exec',
    '--json',
    '-s',
    'workspace-write',
    '-C',
    dir,
    'write the report',
  ];
  const markers = join(dir, 'state', 'markers');
  writeMarker(
    markers,
    markExhausted(
      { ...interrupted('spent', 'codex', codexArgv, dir, SPENT), reviveCount: 3 },
      'revive budget spent',
      Date.now() - 10 * MIN,
    ),
  );
  writeMarker(markers, interrupted('aborted', 'codex', codexArgv, dir, ABORTED));
  writeMarker(
    markers,
    interrupted(
      'escaped',
      'claude',
      [process.execPath, fakeAgent, 'claude', '-p', 'write the report', '--output-format', 'stream-json', '--verbose'],
      dir,
      ESCAPED,
    ),
  );

  const revivePrompt = reviveMessage('write the report');
  writeFileSync(
    join(sessions, `rollout-2026-12-01T08-00-00-${SPENT}.jsonl`),
    rollout(SPENT, dir, [
      [8 * MIN, { type: 'task_started' }],
      [8 * MIN, userTurn(revivePrompt)],
      [5 * MIN, { type: 'task_started' }],
      [5 * MIN, userTurn('please continue with the rollback plan')],
    ]),
  );
  writeFileSync(
    join(sessions, `rollout-2026-12-01T08-00-01-${ABORTED}.jsonl`),
    rollout(ABORTED, dir, [
      [6 * MIN, { type: 'task_started' }],
      [6 * MIN, userTurn('write the report')],
      [4 * MIN, { type: 'turn_aborted', reason: 'interrupted' }],
    ]),
  );
  const claudeRow = (ago: number, type: string, content: unknown) => ({
    type,
    sessionId: ESCAPED,
    cwd: dir,
    isSidechain: false,
    timestamp: iso(ago),
    message: { content },
  });
  writeFileSync(
    join(claudeDir, 'projects', '-w', `${ESCAPED}.jsonl`),
    jsonl([
      claudeRow(6 * MIN, 'user', 'write the report'),
      claudeRow(5 * MIN, 'assistant', [{ type: 'tool_use', id: 'toolu_1' }]),
      claudeRow(4 * MIN, 'user', [
        { type: 'tool_result', tool_use_id: 'toolu_1', text: "The user doesn't want to proceed with this tool use." },
      ]),
      claudeRow(4 * MIN, 'user', [{ type: 'text', text: '[Request interrupted by user for tool use]' }]),
    ]),
  );

  const log = join(dir, 'argv.log');
  const env = { ...process.env, FAKE_AGENT_ARGV_LOG: log, HOME: dir, NOTIFY_SOCKET: '', DEADMAN_CONFIG: '' };
  const revive = (...args: string[]) => runDeadman(['revive', '--config', config, ...args], { env, cwd: dir });
  const planned = JSON.parse((await revive('--dry-run', '--json')).stdout) as Array<{
    name: string;
    action: string;
    reason: string;
  }>;
  const byName = Object.fromEntries(planned.map((row) => [row.name, row]));
  assert.equal(byName.spent?.action, 'revive', JSON.stringify(planned));
  assert.deepEqual([byName.aborted?.action, byName.escaped?.action], ['skip', 'skip'], JSON.stringify(planned));
  assert.match(byName.aborted!.reason, /completed/);
  assert.match(byName.escaped!.reason, /completed/, "the marker is overruled by the person's interrupt");

  const result = await revive();
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    new RegExp(`revived session ${SPENT} \\(1/3\\)`),
    'the genuine turn reset the spent budget',
  );
  await waitFor(() => argvLog(log).length > 0, 10_000, 'the resumed agent');
  const ran = argvLog(log);
  assert.equal(ran.length, 1, 'only the session with a genuine turn was revived');
  assert.deepEqual(ran[0]!.slice(7, 9), ['resume', SPENT]);
});
