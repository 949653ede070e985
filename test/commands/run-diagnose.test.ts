import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, runDeadman, tempDir } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { reconcile } from '../../lib/core/incident/diagnosis.ts';
import { parseDiagnosis } from '../../lib/core/incident/diagnosis-schema.ts';
import { diagnose } from '../../lib/core/incident/diagnose-rules.ts';

const fakeAgent = join(repoRoot, 'dist', 'lib', 'demo', 'fake-agent.js');

/** A hung tool under --auto-recover, with a diagnostician that answers `answer` (after saving its input). */
async function hungWithDiagnostician(t: { after(fn: () => void): void }, answer: string) {
  const dir = tempDir(t);
  const script = join(dir, 'diagnose.sh');
  writeFileSync(script, `#!/bin/sh\ncat > ${dir}/incident.json\n${answer}\n`, { mode: 0o755 });
  const config = join(dir, 'deadman.toml');
  writeFileSync(config, `[diagnose]\ncommand = ["${script}"]\ntimeout = "2s"\n`);
  const database = join(dir, 'deadman.db');
  const result = await runDeadman(['run', '--config', config, '--database', database, '--adapter', 'codex', '--auto-recover', '--hung-timeout', '1s',
    '--inactivity', '4s', '--poll', '200ms', '--stop-grace', '1s', '--', process.execPath, fakeAgent, 'codex', 'exec', '--json', 'task'],
  { env: { ...process.env, STATE_DIRECTORY: dir, NOTIFY_SOCKET: '', FAKE_AGENT_SCENARIO: 'hang-tool' }, cwd: dir });
  return { dir, database, result };
}

test('a diagnostician that advises leaving it to a person stops the kill, even with --auto-recover', async (t) => {
  const { dir, database, result } = await hungWithDiagnostician(t, `echo '{"action":"REPORT","rationale":"a long download, no I/O yet"}'`);
  assert.equal(result.code, 75, 'nothing was killed; inactivity later stalls the run');
  assert.match(result.stderr, /diagnostician recommends REPORT: a long download/);
  const incident = JSON.parse(readFileSync(join(dir, 'incident.json'), 'utf8')) as { kind: string; target: { pid: number }; lastLines: string[] };
  assert.equal(incident.kind, 'HUNG_PROCESS');
  assert.ok(incident.target.pid > 0 && Array.isArray(incident.lastLines));
  assert.deepEqual(query<{ source: string; action: string }>(database, 'SELECT source, action FROM diagnoses ORDER BY id').slice(0, 2).map((r) => ({ ...r })),
    [{ source: 'rules', action: 'TERMINATE_DESCENDANT_PROCESS' }, { source: 'external', action: 'REPORT' }]);
  assert.equal(query(database, 'SELECT id FROM actions').length, 0);
  assert.equal(query<{ state: string }>(database, "SELECT state FROM incidents WHERE kind = 'HUNG_PROCESS'")[0]?.state, 'AWAITING_APPROVAL');
});

test('a diagnostician that fails, stalls or answers garbage leaves the decision to the rules', async (t) => {
  for (const answer of ['exit 3', 'sleep 10', 'echo "I think you should restart"', `echo '{"action":"STALL_POLICY","rationale":"restart it"}'`]) {
    const { database, result } = await hungWithDiagnostician(t, answer);
    assert.equal(result.code, 0, `${answer}: ${result.stderr}`);
    assert.equal(query<{ state: string }>(database, "SELECT state FROM incidents WHERE kind = 'HUNG_PROCESS'")[0]?.state, 'RESOLVED', answer);
  }
});

test('diagnosis JSON is validated and may not widen what the signal allows', () => {
  assert.deepEqual(parseDiagnosis('thinking...\n{"action":"REPORT","rationale":"wait"}\n'), { ok: true, diagnosis: { action: 'REPORT', rationale: 'wait' } });
  for (const bad of ['', 'nope', '{"action":"REBOOT","rationale":"x"}', '{"action":"REPORT"}', '{"action":"REPORT","rationale":"x","extra":1}']) {
    assert.equal(parseDiagnosis(bad).ok, false, bad);
  }
  const rules = diagnose('HUNG_PROCESS');
  assert.equal(reconcile('HUNG_PROCESS', rules, { action: 'STALL_POLICY', rationale: 'x' }).diagnosis, rules);
  assert.equal(reconcile('HUNG_PROCESS', rules, { action: 'REPORT', rationale: 'x' }).diagnosis.action, 'REPORT');
  assert.equal(reconcile('OUTPUT_INACTIVITY', diagnose('OUTPUT_INACTIVITY'), { action: 'REPORT', rationale: 'x' }).diagnosis.action, 'STALL_POLICY');
});
