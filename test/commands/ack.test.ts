import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { Store } from '../../lib/io/store/store.ts';
import { ownStartTime } from '../../lib/io/process/process-identity.ts';

/**
 * A red that clears: a stall's ESCALATED incident is settled by a later clean run of the same
 * name (SUPERSEDED) or by a person (`deadman ack`, ACKNOWLEDGED with who and when), and every
 * command gives an incident the same state. Real runs, a real database.
 */

function setup(t: { after(fn: () => void): void }) {
  const dir = tempDir(t);
  const state = join(dir, 'state');
  const config = join(dir, 'deadman.toml');
  writeFileSync(config, `state_dir = ${JSON.stringify(state)}\n`);
  const env = { ...process.env, DEADMAN_CONFIG: '', NOTIFY_SOCKET: '', STATE_DIRECTORY: '' };
  const deadman = (args: string[]) => runDeadman([...args, '--config', config], { cwd: dir, env });
  return { deadman, database: join(state, 'deadman.db') };
}

type Deadman = ReturnType<typeof setup>['deadman'];

/** A run that stalls (no output, nothing working): exit 75, its OUTPUT_INACTIVITY incident ESCALATED. */
async function stall(deadman: Deadman, name: string): Promise<number> {
  const stalled = await deadman([
    'run',
    '--name',
    name,
    '--inactivity',
    '1s',
    '--poll',
    '200ms',
    '--stop-grace',
    '1s',
    '--',
    'sh',
    '-c',
    'sleep 60',
  ]);
  assert.equal(stalled.code, 75, stalled.stderr);
  const incidents = JSON.parse((await deadman(['incidents', '--name', name, '--json'])).stdout) as Array<{
    id: number;
    state: string;
  }>;
  assert.equal(incidents.at(-1)!.state, 'ESCALATED');
  return incidents.at(-1)!.id;
}

const stateIn = async (deadman: Deadman, id: number) => {
  const report = JSON.parse((await deadman(['report', String(id), '--json'])).stdout) as { state: string };
  const listed = (
    JSON.parse((await deadman(['incidents', '--json'])).stdout) as Array<{ id: number; state: string }>
  ).find((i) => i.id === id)!;
  return { report: report.state, incidents: listed.state };
};

test('a stall then a clean run of the same name: status exits 0, the incident stays in the record as SUPERSEDED', async (t) => {
  const { deadman, database } = setup(t);
  const id = await stall(deadman, 'job');
  assert.equal((await deadman(['status'])).code, 1, 'the stall needs a person until something settles it');
  assert.equal((await deadman(['run', '--name', 'other', '--', 'true'])).code, 0);
  assert.equal((await deadman(['status'])).code, 1, 'a clean run of another name settles nothing');

  assert.equal((await deadman(['run', '--name', 'job', '--', 'true'])).code, 0);
  const status = await deadman(['status', '--json']);
  assert.equal(status.code, 0, status.stdout);
  assert.deepEqual(
    (JSON.parse(status.stdout) as Array<{ open_incident: unknown }>).map((row) => row.open_incident),
    [null, null],
  );
  assert.deepEqual(await stateIn(deadman, id), { report: 'SUPERSEDED', incidents: 'SUPERSEDED' });
  const [last] = query<{ from_state: string; to_state: string; reason: string }>(
    database,
    'SELECT from_state, to_state, reason FROM incident_transitions WHERE incident_id = ? ORDER BY id DESC LIMIT 1',
    id,
  );
  assert.deepEqual(last, {
    from_state: 'ESCALATED',
    to_state: 'SUPERSEDED',
    reason: 'superseded: run #3 of the same name completed (exit 0)',
  });
  const metrics = await deadman(['metrics']);
  assert.doesNotMatch(metrics.stdout, /^deadman_open_incidents\{name="job"/m, metrics.stdout);

  const ack = await deadman(['ack', String(id)]);
  assert.deepEqual(
    [ack.code, ack.stderr],
    [1, `deadman: incident ${id} is SUPERSEDED, not ESCALATED: there is nothing to acknowledge\n`],
  );
});

test('deadman ack settles an escalated incident by hand, with who, when and the note; bad ids are refused', async (t) => {
  const { deadman, database } = setup(t);
  const id = await stall(deadman, 'job');
  assert.equal((await deadman(['run', '--name', 'job', '--', 'false'])).code, 1);
  assert.equal((await deadman(['status'])).code, 1, 'a failed run supersedes nothing');
  const deny = await deadman(['deny', String(id)]);
  assert.deepEqual(
    [deny.code, deny.stderr],
    [1, `deadman: incident ${id} is ESCALATED, not AWAITING_APPROVAL: there is nothing to deny\n`],
    'deny says the state report says',
  );
  assert.deepEqual(await stateIn(deadman, id), { report: 'ESCALATED', incidents: 'ESCALATED' });

  const before = Date.now();
  const ack = await deadman(['ack', String(id), '--note', 'disk was full; cleaned']);
  assert.equal(ack.code, 0, ack.stderr);
  assert.match(ack.stdout, new RegExp(`^acknowledged incident ${id} as \\S+ \\(uid \\d+`));
  assert.deepEqual(await stateIn(deadman, id), { report: 'ACKNOWLEDGED', incidents: 'ACKNOWLEDGED' });
  const [last] = query<{ at: number; to_state: string; reason: string; evidence: { note: string } }>(
    database,
    'SELECT at, to_state, reason, evidence FROM incident_transitions WHERE incident_id = ? ORDER BY id DESC LIMIT 1',
    id,
  );
  assert.equal(last!.to_state, 'ACKNOWLEDGED');
  assert.match(last!.reason, /^acknowledged by \S+ \(uid \d+.*\): disk was full; cleaned$/);
  assert.ok(last!.at >= before && last!.at <= Date.now(), 'when: the time of the ack');
  assert.equal(last!.evidence.note, 'disk was full; cleaned');
  const status = await deadman(['status']);
  assert.equal(status.code, 1, 'the latest run failed: still red by the run, not by the incident');
  assert.match(status.stdout, /^job\s+failed 1\s.*\s-$/m);

  const again = await deadman(['ack', String(id)]);
  assert.deepEqual(
    [again.code, again.stderr],
    [1, `deadman: incident ${id} is ACKNOWLEDGED, not ESCALATED: there is nothing to acknowledge\n`],
  );
  const missing = await deadman(['ack', '999']);
  assert.equal(missing.code, 64);
  assert.match(missing.stderr, /^deadman: incident 999 is not in \S+deadman\.db; see deadman incidents\n$/);
  assert.equal((await deadman(['ack', '0'])).code, 64);
});

test('ack refuses, writing nothing, an incident that waits for an answer, one of a running deadman, and a database it may not record in', async (t) => {
  const { deadman, database } = setup(t);
  assert.equal((await deadman(['run', '--name', 'seed', '--', 'true'])).code, 0, 'creates the database');
  // This test process stands for a live deadman: its pid and start time are checked live.
  const store = new Store(database);
  const runId = store.insert('runs', {
    name: 'live',
    argv: ['x'],
    cwd: '/',
    pid: process.pid,
    pid_start_time: ownStartTime(),
    adapter: 'generic',
    started_at: Date.now(),
  });
  const incident = (state: string) =>
    store.insert('incidents', {
      run_id: runId,
      kind: 'HUNG_PROCESS',
      state,
      message: 'm',
      opened_at: Date.now(),
      updated_at: Date.now(),
    });
  const waiting = incident('AWAITING_APPROVAL');
  const escalated = incident('ESCALATED');
  store.close();
  const states = () => {
    const reader = new Store(database, { readOnly: true }); // read-only: it must not migrate the older schema below
    try {
      return reader
        .all<{ state: string }>('SELECT state FROM incidents WHERE id IN (?, ?) ORDER BY id', waiting, escalated)
        .map((i) => i.state);
    } finally {
      reader.close();
    }
  };

  const answer = await deadman(['ack', String(waiting)]);
  assert.deepEqual(
    [answer.code, answer.stderr],
    [
      1,
      `deadman: incident ${waiting} is AWAITING_APPROVAL: answer it with deadman approve ${waiting} or deadman deny ${waiting}\n`,
    ],
  );
  const live = await deadman(['ack', String(escalated)]);
  assert.equal(live.code, 1);
  assert.match(
    live.stderr,
    new RegExp(`^deadman: incident ${escalated} belongs to run #${runId}, which is still running and acts on it; `),
  );
  assert.deepEqual(states(), ['AWAITING_APPROVAL', 'ESCALATED']);

  // A database of an older schema is not this deadman's to write into: exit 74, one line.
  const old = new Store(database);
  old.db.exec(
    `UPDATE runs SET ended_at = ${Date.now()}, exit_code = 75, outcome = 'stalled' WHERE id = ${runId}; PRAGMA user_version = 6`,
  );
  old.close();
  const refused = await deadman(['ack', String(escalated)]);
  assert.equal(refused.code, 74, refused.stderr);
  assert.match(
    refused.stderr,
    /^deadman: cannot record the acknowledgement in \S+deadman\.db: it is not this user's file at this deadman's schema version; run as its owner\n$/,
  );
  assert.deepEqual(states(), ['AWAITING_APPROVAL', 'ESCALATED']);
});
