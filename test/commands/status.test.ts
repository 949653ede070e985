import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { markCompleted, markInterrupted, newMarker, withSessionId } from '../../lib/core/revive/marker.ts';
import { currentOwner, markerPath, writeMarker } from '../../lib/io/revive/markers.ts';
import { Store } from '../../lib/io/store/store.ts';
import { runDeadman, tempDir } from '../helpers/cli.ts';

function setup(t: { after(fn: () => void): void }) {
  const dir = tempDir(t);
  const config = join(dir, 'deadman.toml');
  writeFileSync(config, `state_dir = ${JSON.stringify(join(dir, 'state'))}\n`);
  return { dir, config, markers: join(dir, 'state', 'markers'), database: join(dir, 'state', 'deadman.db') };
}

const status = (s: { config: string; dir: string }, args: string[] = []) =>
  runDeadman(['status', '--config', s.config, ...args], { cwd: s.dir, env: { ...process.env, DEADMAN_CONFIG: '' } });

test('one line per marker and per run name: state, session, age, revives, open incident', async (t) => {
  const s = setup(t);
  const now = Date.now();
  const base = (name: string, session: string) =>
    withSessionId(newMarker({ name, adapter: 'codex', argv: ['codex', 'exec', '--json', 'x'], cwd: s.dir, owner: { pid: 999_999, startTime: 1 }, now: now - 300_000 }), session, now - 240_000);
  writeMarker(s.markers, { ...markInterrupted(base('agent', 'sess-a'), 'exit 137', now - 180_000), reviveCount: 2 });
  writeMarker(s.markers, { ...base('live', 'sess-l'), owner: currentOwner() });
  writeMarker(s.markers, base('lost', 'sess-x'));
  writeMarker(s.markers, markCompleted(base('done', 'sess-d'), now - 60_000));
  writeFileSync(markerPath(s.markers, 'broken'), '{"version":1,');
  const store = new Store(s.database);
  const run = (name: string, ended: number | null, outcome: string | null) =>
    store.insert('runs', { name, argv: ['x'], cwd: '/', pid: 4242, adapter: 'generic', started_at: now - 600_000, ended_at: ended, outcome });
  const agentRun = run('agent', now - 180_000, 'stalled');
  run('nightly', null, null);
  run('nightly', now - 120_000, 'completed');
  const incident = (runId: number, kind: string, state: string) =>
    store.insert('incidents', { run_id: runId, kind, state, message: kind, opened_at: now - 200_000, updated_at: now - 100_000 });
  incident(agentRun, 'OUTPUT_INACTIVITY', 'RESOLVED');
  const open = incident(agentRun, 'HALT_AND_ESCALATE', 'ESCALATED');
  store.close();

  const json = await status(s, ['--json']);
  assert.equal(json.code, 0, json.stderr);
  const rows = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
  const byName = Object.fromEntries(rows.map((row) => [row.name, row]));
  assert.deepEqual(Object.keys(byName), ['agent', 'broken', 'done', 'live', 'lost', 'nightly']);
  assert.deepEqual(byName.agent, {
    name: 'agent', state: 'interrupted', sessionId: 'sess-a', updatedAt: now - 180_000, revives: 2, reason: 'exit 137',
    openIncident: { id: open, kind: 'HALT_AND_ESCALATE', state: 'ESCALATED' }, maxRevives: 5,
  });
  assert.equal(byName.live!.state, `running (pid ${process.pid})`);
  assert.equal(byName.lost!.state, 'interrupted (pid 999999 gone)');
  assert.deepEqual([byName.done!.state, byName.done!.revives], ['completed', 0]);
  assert.equal(byName.broken!.state, 'damaged marker');
  assert.match(String(byName.broken!.reason), /cut short or not JSON/);
  assert.deepEqual([byName.nightly!.state, byName.nightly!.sessionId, byName.nightly!.revives, byName.nightly!.openIncident], ['completed', null, null, null]);

  const text = await status(s);
  const lines = text.stdout.trim().split('\n');
  assert.equal(lines.length, 7);
  assert.match(lines[0]!, /^NAME\s+STATE\s+SESSION\s+AGE\s+REVIVES\s+OPEN INCIDENT$/);
  assert.match(lines[1]!, new RegExp(`^agent\\s+interrupted\\s+sess-a\\s+3 minutes ago\\s+2/5\\s+#${open} HALT_AND_ESCALATE ESCALATED$`));
  assert.match(lines[6]!, /^nightly\s+completed\s+-\s+2 minutes ago\s+-\s+-$/);
});

test('nothing recorded yet: says so, creates no database', async (t) => {
  const s = setup(t);
  mkdirSync(join(s.dir, 'state'));
  const result = await status(s);
  assert.deepEqual([result.code, result.stdout], [0, 'no runs or revive markers yet\n']);
  assert.equal(existsSync(s.database), false);
});
