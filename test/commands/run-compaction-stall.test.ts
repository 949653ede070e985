import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';

/**
 * A stall inside compaction (agent-formats.md §F.1): the agent says it compacts its context
 * (Claude's `status` compacting, then `compact_boundary`) and prints nothing again. The
 * incident, `deadman report` and the alert say the agent was compacting its context; an agent
 * that spoke again after its compaction stalls with the plain message.
 */

const SESSION = '7c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5e';
const INIT = { type: 'system', subtype: 'init', session_id: SESSION, cwd: '/', tools: [], model: 'claude-sonnet' };
const COMPACTING = [{ session_id: SESSION, status: 'compacting', uuid: 'u1', type: 'system', subtype: 'status' }];
const COMPACTED_THEN_TEXT = [
  ...COMPACTING,
  {
    type: 'system',
    subtype: 'compact_boundary',
    session_id: SESSION,
    compact_metadata: { trigger: 'auto', pre_tokens: 170000 },
  },
  {
    type: 'assistant',
    session_id: SESSION,
    message: { id: 'm1', content: [{ type: 'text', text: 'Going on with the task.' }] },
  },
];

async function silentAfter(t: { after(fn: () => void): void }, lines: object[]) {
  const dir = tempDir(t);
  const database = join(dir, 'deadman.db');
  const config = join(dir, 'deadman.toml');
  const alerts = join(dir, 'alerts.jsonl');
  writeFileSync(
    config,
    `[notify]\ncommand = ["/bin/sh", "-c", "cat >> ${alerts}; echo >> ${alerts}"]\ntimeout = "5s"\n`,
  );
  const script = `process.stdout.write(${JSON.stringify([INIT, ...lines].map((line) => JSON.stringify(line)).join('\n') + '\n')}); setInterval(() => {}, 60000);`;
  const result = await runDeadman(
    [
      'run',
      '--config',
      config,
      '--database',
      database,
      '--adapter',
      'claude',
      '--inactivity',
      '2s',
      '--poll',
      '200ms',
      '--stop-grace',
      '1s',
      '--',
      process.execPath,
      '-e',
      script,
    ],
    {
      env: { ...process.env, STATE_DIRECTORY: dir, NOTIFY_SOCKET: '' },
      cwd: dir,
    },
  );
  const report = await runDeadman(['report', 'latest', '--database', database], {
    env: { ...process.env, STATE_DIRECTORY: dir },
    cwd: dir,
  });
  const sent = readFileSync(alerts, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { event: string; incident: { message: string } | null; reason: string | null });
  return { result, report: report.stdout, database, sent };
}

test('silent after "compacting": OUTPUT_INACTIVITY says the agent was compacting its context, in the incident, the report and the alert', async (t) => {
  const { result, report, database, sent } = await silentAfter(t, COMPACTING);
  assert.equal(result.code, 75, result.stderr);
  const [incident] = query<{ kind: string; message: string }>(database, 'SELECT kind, message FROM incidents');
  assert.equal(incident!.kind, 'OUTPUT_INACTIVITY');
  assert.match(
    incident!.message,
    /^no claude output for \d+s: the agent was compacting its context \(its last event, \d+s ago, was a compaction\)$/,
  );
  assert.match(report, /the agent was compacting its context/);
  assert.ok(
    sent.some(
      (alert) => alert.event === 'incident' && /the agent was compacting its context/.test(alert.incident!.message),
    ),
    JSON.stringify(sent),
  );
});

test('silent after the compaction ended and the agent spoke again: a plain inactivity, no word of compaction', async (t) => {
  const { result, database } = await silentAfter(t, COMPACTED_THEN_TEXT);
  assert.equal(result.code, 75, result.stderr);
  const [incident] = query<{ message: string }>(database, 'SELECT message FROM incidents');
  assert.match(incident!.message, /^no claude output for \d+s$/);
});
