import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, runDeadman, tempDir } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';

const fakeAgent = join(repoRoot, 'dist', 'lib', 'demo', 'fake-agent.js');

/** A hung tool under --auto-recover, with a diagnostician that answers `answer` (after saving its input). */
async function hungWithDiagnostician(t: { after(fn: () => void): void }, answer: string) {
  const dir = tempDir(t);
  const script = join(dir, 'diagnose.sh');
  writeFileSync(script, `#!/bin/sh\ncat > ${dir}/incident.json\n${answer}\n`, { mode: 0o755 });
  const config = join(dir, 'deadman.toml');
  writeFileSync(config, `[diagnose]\ncommand = ["${script}"]\ntimeout = "2s"\n`);
  const database = join(dir, 'deadman.db');
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
      '--hung-timeout',
      '1s',
      '--inactivity',
      '4s',
      '--poll',
      '200ms',
      '--stop-grace',
      '1s',
      '--',
      process.execPath,
      fakeAgent,
      'codex',
      'exec',
      '--json',
      'task',
    ],
    { env: { ...process.env, STATE_DIRECTORY: dir, NOTIFY_SOCKET: '', FAKE_AGENT_SCENARIO: 'hang-tool' }, cwd: dir },
  );
  return { dir, database, result };
}

/** One answer in the diagnosis contract, as a shell `echo`. */
function contract(overrides: object = {}): string {
  const answer = {
    classification: 'HUNG_PROCESS',
    confidence: 0.7,
    recommended_action: 'OBSERVE',
    rationale: 'a long download, no I/O yet',
    evidence_ids: ['proc_001'],
    guidance: null,
    requires_human_approval: false,
    ...overrides,
  };
  return `echo '${JSON.stringify(answer)}'`;
}

test('a diagnostician that advises leaving it to a person stops the kill, even with --auto-recover', async (t) => {
  const { dir, database, result } = await hungWithDiagnostician(t, contract());
  assert.equal(result.code, 75, 'nothing was killed; inactivity later stalls the run');
  assert.match(result.stderr, /diagnostician recommends OBSERVE: a long download/);
  const packet = JSON.parse(readFileSync(join(dir, 'incident.json'), 'utf8')) as {
    signal: { kind: string };
    evidence: Array<{ id: string; facts: { role?: string } }>;
  };
  assert.equal(packet.signal.kind, 'HUNG_PROCESS');
  assert.deepEqual(packet.evidence[0], {
    ...packet.evidence[0],
    id: 'proc_001',
    facts: { ...packet.evidence[0]!.facts, role: 'target' },
  });
  assert.doesNotMatch(JSON.stringify(packet), /"pid"/);
  assert.deepEqual(
    query<{ source: string; action: string }>(database, 'SELECT source, action FROM diagnoses ORDER BY id')
      .slice(0, 2)
      .map((r) => ({ ...r })),
    [
      { source: 'rules', action: 'TERMINATE_DESCENDANT_PROCESS' },
      { source: 'external', action: 'OBSERVE' },
    ],
  );
  assert.equal(query(database, 'SELECT id FROM actions').length, 0);
  const waited = query<{ to_state: string }>(
    database,
    "SELECT t.to_state FROM incident_transitions t JOIN incidents i ON i.id = t.incident_id WHERE i.kind = 'HUNG_PROCESS' ORDER BY t.id",
  );
  assert.deepEqual(
    waited.map((r) => r.to_state),
    ['OPEN', 'AWAITING_APPROVAL', 'ABANDONED'],
    'it waited for a person until the run ended',
  );
});

test('a diagnostician that fails, stalls or answers garbage leaves the decision to the rules', async (t) => {
  const answers: Array<[string, RegExp]> = [
    ['exit 3', /exited 3/],
    ['sleep 10', /gave no answer within 2s/],
    ['echo "I think you should restart"', /did not answer a JSON object/],
    [contract({ recommended_action: 'CANCEL_AND_RESUME' }), /CANCEL_AND_RESUME is not an action for HUNG_PROCESS/],
  ];
  for (const [answer, why] of answers) {
    const { database, result } = await hungWithDiagnostician(t, answer);
    assert.equal(result.code, 0, `${answer}: ${result.stderr}`);
    assert.equal(
      query<{ state: string }>(database, "SELECT state FROM incidents WHERE kind = 'HUNG_PROCESS'")[0]?.state,
      'RESOLVED',
      answer,
    );
    const refused = query<{ rationale: string }>(
      database,
      "SELECT rationale FROM diagnoses WHERE source = 'external-refused'",
    );
    assert.match(refused[0]?.rationale ?? '', why, answer);
  }
});

test('a diagnostician that says HALT_AND_ESCALATE: the tree is stopped, the incident stays ESCALATED, exit 69 (do not restart)', async (t) => {
  const { database, result } = await hungWithDiagnostician(
    t,
    contract({ recommended_action: 'HALT_AND_ESCALATE', rationale: 'it is deleting files' }),
  );
  assert.equal(result.code, 69, result.stderr);
  assert.match(result.stderr, /HALT_AND_ESCALATE: /);
  assert.equal(
    query<{ state: string }>(database, "SELECT state FROM incidents WHERE kind = 'HUNG_PROCESS'")[0]?.state,
    'ESCALATED',
  );
  assert.deepEqual(
    query<{ kind: string }>(database, 'SELECT kind FROM actions').map((r) => r.kind),
    ['HALT_AND_ESCALATE'],
  );
  assert.equal(query<{ outcome: string }>(database, 'SELECT outcome FROM runs')[0]?.outcome, 'halted');
});
