import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ExitCode } from '../../lib/exit-codes.ts';
import { Store } from '../../lib/io/store/store.ts';
import { runDeadman, tempDir } from '../helpers/cli.ts';

const T0 = Date.UTC(2025, 0, 15, 8, 50, 12);

/** Writes one run with one incident the way the run loop does (see lib/supervise/records/records.ts). */
function recordIncident(store: Store, name: string, kind: string, at: number, resolved: boolean): number {
  const runId = store.insert('runs', {
    name,
    argv: ['node', 'agent.js', 'a "quoted" arg'],
    cwd: '/srv/work',
    pid: 100,
    adapter: 'codex',
    started_at: at - 1000,
  });
  const target = {
    pid: 4242,
    ppid: 4241,
    pgid: 4241,
    sid: 4241,
    startTime: 99_001,
    state: 'S',
    comm: 'sleep',
    cmdline: ['sleep', '600'],
    cpuTicks: 0,
    ioBytes: 0,
    listening: false,
  };
  const root = {
    ...target,
    pid: 4200,
    ppid: 100,
    startTime: 98_000,
    comm: 'node',
    cmdline: ['node', 'agent.js'],
    cpuTicks: 12,
  };
  const signalId = store.insert('signals', {
    run_id: runId,
    at,
    kind,
    message: `${kind} detected`,
    evidence: { processes: [root, target], lastLines: ['{"type":"item.started"}'], target },
  });
  const id = store.insert('incidents', {
    run_id: runId,
    kind,
    state: 'OPEN',
    message: `${kind} detected`,
    opened_at: at,
    updated_at: at,
    signal_id: signalId,
  });
  store.insert('incident_transitions', {
    incident_id: id,
    at,
    from_state: null,
    to_state: 'OPEN',
    reason: `${kind} detected`,
    evidence: { signal: signalId },
  });
  if (resolved) {
    store.insert('incident_transitions', {
      incident_id: id,
      at: at + 10,
      from_state: 'OPEN',
      to_state: 'RECOVERING',
      reason: 'auto_recover is on',
    });
    store.insert('actions', {
      incident_id: id,
      at: at + 20,
      kind: 'TERMINATE_DESCENDANT_PROCESS',
      target,
      result: 'killed',
      detail: { killed: [4242], survived: [4243] },
    });
    store.insert('incident_transitions', {
      incident_id: id,
      at: at + 20,
      from_state: 'RECOVERING',
      to_state: 'VERIFYING',
      reason: 'killed 1 process',
    });
    store.insert('verifications', {
      incident_id: id,
      at: at + 900,
      verdict: 'RESOLVED',
      detail: 'new output after the kill',
    });
    store.insert('incident_transitions', {
      incident_id: id,
      at: at + 900,
      from_state: 'VERIFYING',
      to_state: 'RESOLVED',
      reason: 'new output after the kill',
    });
    store.update('incidents', id, { state: 'RESOLVED', updated_at: at + 900 });
  }
  store.update('runs', runId, { ended_at: at + 2000, exit_code: 0, outcome: 'completed', reason: 'exit 0' });
  return id;
}

function seed(t: { after(fn: () => void): void }): { database: string; ids: number[] } {
  const database = join(tempDir(t), 'deadman.db');
  const store = new Store(database);
  try {
    const ids = [
      recordIncident(store, 'review', 'HUNG_PROCESS', T0, true),
      recordIncident(store, 'nightly', 'OUTPUT_INACTIVITY', Date.now() - 60_000, false),
    ];
    return { database, ids };
  } finally {
    store.close();
  }
}

test('report latest --json is valid JSON with the timeline', async (t) => {
  const { database, ids } = seed(t);
  const result = await runDeadman(['report', 'latest', '--json', '--database', database]);
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout) as { id: number; kind: string; timeline: unknown[] };
  assert.equal(report.id, ids[1]);
  assert.equal(report.kind, 'OUTPUT_INACTIVITY');
  assert.equal(report.timeline.length, 1);
});

test('report <id> shows the whole incident: timeline, evidence, action, died/survived, verification, advice', async (t) => {
  const { database, ids } = seed(t);
  const result = await runDeadman(['report', String(ids[0]), '--database', database]);
  assert.equal(result.code, 0, result.stderr);
  for (const part of [
    'HUNG_PROCESS · RESOLVED',
    'OPEN              → RECOVERING',
    'process tree at detection',
    '98000',
    '◀ target',
    '| {"type":"item.started"}',
    'TERMINATE_DESCENDANT_PROCESS → killed',
    'died:     4242',
    'survived: 4243',
    'verification',
    'RESOLVED — new output',
    'advice: A tool command',
  ]) {
    assert.ok(result.stdout.includes(part), `missing "${part}" in:\n${result.stdout}`);
  }
  const named = await runDeadman(['report', 'latest', '--name', 'review', '--json', '--database', database]);
  assert.equal((JSON.parse(named.stdout) as { id: number }).id, ids[0]);
});

test('incidents lists them, filters by --since and --name, and prints JSON', async (t) => {
  const { database, ids } = seed(t);
  const all = await runDeadman(['incidents', '--database', database]);
  assert.equal(all.code, 0, all.stderr);
  assert.match(all.stdout, /2 incidents/);
  const recent = await runDeadman(['incidents', '--since', '1h', '--json', '--database', database]);
  assert.deepEqual(
    (JSON.parse(recent.stdout) as Array<{ id: number }>).map((r) => r.id),
    [ids[1]],
  );
  const byName = await runDeadman(['incidents', '--name', 'review', '--json', '--database', database]);
  assert.deepEqual(
    (JSON.parse(byName.stdout) as Array<{ id: number; run: { name: string } }>).map((r) => [r.id, r.run.name]),
    [[ids[0], 'review']],
  );
  const bad = await runDeadman(['incidents', '--since', 'yesterday', '--database', database]);
  assert.equal(bad.code, ExitCode.USAGE);
  assert.match(bad.stderr, /^deadman: --since "yesterday" is not a time span/);
});

test('no database yet: "nothing recorded" and no file created; an unknown id is a usage error', async (t) => {
  const database = join(tempDir(t), 'never', 'deadman.db');
  const latest = await runDeadman(['report', 'latest', '--database', database]);
  assert.equal(latest.code, 0, latest.stderr);
  assert.match(latest.stdout, /^no incidents recorded in /);
  assert.equal((await runDeadman(['report', 'latest', '--json', '--database', database])).stdout.trim(), 'null');
  assert.equal((await runDeadman(['incidents', '--json', '--database', database])).stdout.trim(), '[]');
  assert.equal(existsSync(database), false, 'reading never creates the database');

  const { database: seeded } = seed(t);
  for (const [arg, message] of [
    ['999', /no incident #999 in .*deadman incidents/],
    ['abc', /"abc" is not an incident id/],
    ['-1', /not an incident id|unknown option -1/],
  ] as const) {
    const result = await runDeadman(['report', arg, '--database', seeded]);
    assert.equal(result.code, ExitCode.USAGE, `${arg}: ${result.stderr}`);
    assert.match(result.stderr, message);
    assert.equal(result.stderr.trim().split('\n').length, 1);
  }
});
