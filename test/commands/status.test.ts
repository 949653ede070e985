import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  markCompleted,
  markExhausted,
  markInterrupted,
  markRevived,
  newMarker,
  withSessionId,
} from '../../lib/core/revive/marker.ts';
import { currentOwner, markerPath, writeMarker } from '../../lib/io/revive/markers.ts';
import { deadmanBin, runDeadman, tempDir, waitFor } from '../helpers/cli.ts';

function setup(t: { after(fn: () => void): void }) {
  const dir = tempDir(t);
  const state = join(dir, 'state');
  const out = join(dir, 'out');
  const config = join(dir, 'deadman.toml');
  writeFileSync(config, `state_dir = ${JSON.stringify(state)}\n`);
  const evidence = join(dir, 'evidence.toml');
  writeFileSync(
    evidence,
    `state_dir = ${JSON.stringify(state)}\n[[evidence]]\nname = "export"\nkind = "file"\nroot = "${out}"\nglob = "${out}/*.csv"\nnon_empty = true\n`,
  );
  const env = { ...process.env, DEADMAN_CONFIG: '', NOTIFY_SOCKET: '' };
  return {
    dir,
    state,
    out,
    config,
    evidence,
    env,
    markers: join(state, 'markers'),
    database: join(state, 'deadman.db'),
  };
}

type Setup = ReturnType<typeof setup>;

const status = (s: Setup, args: string[] = []) =>
  runDeadman(['status', '--config', s.config, ...args], { cwd: s.dir, env: s.env });
const run = (s: Setup, name: string, command: string[], options: string[] = [], config = s.config) =>
  runDeadman(['run', '--config', config, '--name', name, ...options, '--', ...command], { cwd: s.dir, env: s.env });

interface JsonRow {
  name: string;
  state: string;
  exit_code: number | null;
  session_id: string | null;
  updated_at: string | null;
  revives: number | null;
  max_revives: number;
  reason: string | null;
  open_incident: object | null;
  needs_attention: boolean;
}

test('the state of each run comes from how it ended: exits 0, 3, 65, 75, 127, a completed revive, a spent budget', async (t) => {
  const s = setup(t);
  assert.equal((await run(s, 'exit-0', ['true'])).code, 0);
  assert.equal((await status(s)).code, 0, 'all is well: exit 0');

  assert.equal((await run(s, 'exit-3', ['sh', '-c', 'exit 3'])).code, 3);
  assert.equal(
    (await run(s, 'exit-65', ['sh', '-c', `mkdir -p ${s.out} && : > ${s.out}/empty.csv`], [], s.evidence)).code,
    65,
  );
  assert.equal(
    (await run(s, 'exit-75', ['sh', '-c', 'sleep 60'], ['--inactivity', '1s', '--poll', '200ms', '--stop-grace', '1s']))
      .code,
    75,
  );
  assert.equal((await run(s, 'exit-127', ['/nonexistent/program'])).code, 127);
  const now = Date.now();
  const base = (name: string) =>
    withSessionId(
      newMarker({
        name,
        adapter: 'codex',
        argv: ['codex', 'exec', '--json', 'x'],
        cwd: s.dir,
        owner: null,
        now: now - 300_000,
      }),
      `${name}-session`,
      now - 240_000,
    );
  const dead = { pid: 999_999, startTime: 1 };
  writeMarker(
    s.markers,
    markCompleted(
      markRevived(
        markInterrupted(base('revived-done'), 'exit 137', now - 200_000),
        { owner: dead, runTag: null },
        now - 100_000,
      ),
      now - 60_000,
    ),
  );
  writeMarker(s.markers, markExhausted({ ...base('spent'), reviveCount: 5 }, 'revive budget spent', now - 60_000));
  writeMarker(s.markers, { ...base('live'), owner: currentOwner() });
  writeMarker(s.markers, base('lost'));
  writeFileSync(markerPath(s.markers, 'broken'), '{"version":2,');

  const result = await status(s, ['--json']);
  assert.equal(result.code, 1, 'something needs attention: exit 1');
  const rows = JSON.parse(result.stdout) as JsonRow[];
  const byName = Object.fromEntries(rows.map((row) => [row.name, row]));
  const states = Object.fromEntries(rows.map((row) => [row.name, [row.state, row.exit_code, row.needs_attention]]));
  assert.deepEqual(states, {
    broken: ['damaged', null, true],
    'exit-0': ['completed', 0, false],
    'exit-127': ['failed', 127, true],
    'exit-3': ['failed', 3, true],
    'exit-65': ['green_but_dead', 65, true],
    'exit-75': ['stalled', 75, true],
    live: ['running', null, false],
    lost: ['interrupted', null, true],
    'revived-done': ['completed', null, false],
    spent: ['exhausted', null, true],
  });
  assert.equal(byName['revived-done']!.revives, 0);
  assert.match(byName['exit-0']!.updated_at!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.deepEqual(Object.keys(byName['exit-0']!), [
    'name',
    'state',
    'exit_code',
    'error_code',
    'session_id',
    'updated_at',
    'revives',
    'max_revives',
    'reason',
    'open_incident',
    'needs_attention',
  ]);
  assert.deepEqual(byName['exit-65']!.open_incident && Object.keys(byName['exit-65']!.open_incident), [
    'id',
    'kind',
    'state',
  ]);

  const text = await status(s);
  assert.equal(text.code, 1);
  const lines = text.stdout.trim().split('\n');
  assert.match(lines[0]!, /^NAME\s+STATE\s+SESSION\s+AGE\s+REVIVES\s+OPEN INCIDENT$/);
  assert.ok(
    lines.some((line) => /^exit-127\s+failed 127\s/.test(line)),
    text.stdout,
  );
  assert.ok(
    lines.some((line) => /^exit-65\s+green-but-dead\s/.test(line)),
    text.stdout,
  );
  assert.ok(
    lines.some((line) => /^spent\s+exhausted\s+spent-session\s+1 minute ago\s+5\/5\s/.test(line)),
    text.stdout,
  );
});

test('nothing recorded yet: says so, creates no database; a mistyped --database is one line and exit 64', async (t) => {
  const s = setup(t);
  mkdirSync(s.state);
  const result = await status(s);
  assert.deepEqual([result.code, result.stdout], [0, 'no runs or revive markers yet\n']);
  assert.equal(existsSync(s.database), false);
  const typo = await status(s, ['--database', join(s.state, 'deadman.bd')]);
  assert.equal(typo.code, 64);
  assert.equal(typo.stdout, '');
  assert.match(typo.stderr, /database .*deadman\.bd does not exist/);
  assert.equal(typo.stderr.trim().split('\n').length, 1);
});

test('a refused marker shows as refused, and its escalated incident keeps status at exit 1 after a later clean run', async (t) => {
  const s = setup(t);
  const started = newMarker({
    name: 'job',
    adapter: 'codex',
    argv: ['codex', 'exec', '--json', 'x'],
    cwd: s.dir,
    owner: null,
    now: Date.now() - 60_000,
  });
  writeMarker(
    s.markers,
    markInterrupted(withSessionId(started, 'job-session', Date.now() - 60_000), 'exit 137', Date.now() - 60_000),
  );
  const path = markerPath(s.markers, 'job');
  writeFileSync(path, readFileSync(path, 'utf8').replace('"x"', '"touch /tmp/forged"'));
  assert.equal((await run(s, 'job', ['true'])).code, 0);
  const first = await status(s, ['--json']);
  assert.equal(first.code, 1);
  const [refused] = JSON.parse(first.stdout) as JsonRow[];
  assert.deepEqual([refused!.name, refused!.state, refused!.needs_attention], ['job', 'refused', true]);
  assert.match(refused!.reason!, /refused: it was not written by deadman/);

  assert.equal((await run(s, 'job', ['true'])).code, 0);
  const later = await status(s, ['--json']);
  assert.equal(later.code, 1, 'nobody resolved the refusal yet');
  const [row] = JSON.parse(later.stdout) as JsonRow[];
  assert.deepEqual(
    [row!.state, row!.needs_attention, (row!.open_incident as { kind: string; state: string }).kind],
    ['completed', true, 'REVIVE_REFUSED'],
  );

  writeFileSync(
    path,
    readFileSync(path, 'utf8')
      .replace('"true"', '"touch /tmp/forged"')
      .replace('"state": "completed"', '"state": "interrupted"'),
  );
  assert.equal((await run(s, 'job', ['true'])).code, 0);
  const again = JSON.parse((await status(s, ['--json'])).stdout) as JsonRow[];
  assert.deepEqual(
    again.map((r) => [r.state, (r.open_incident as { id: number }).id]),
    [['refused', (row!.open_incident as { id: number }).id]],
    'refused again: the same incident, recurred',
  );

  // A clean run supersedes no refusal (someone wrote that marker); a person's ack settles it.
  assert.equal((await run(s, 'job', ['true'])).code, 0);
  assert.equal((await status(s)).code, 1, 'still waits on a person');
  const id = (row!.open_incident as { id: number }).id;
  const acked = await runDeadman(['ack', String(id), '--config', s.config, '--note', 'the marker was ours'], {
    cwd: s.dir,
    env: s.env,
  });
  assert.equal(acked.code, 0, acked.stderr);
  const settled = await status(s, ['--json']);
  assert.equal(settled.code, 0, settled.stdout);
  assert.deepEqual(
    (JSON.parse(settled.stdout) as JsonRow[]).map((r) => [r.state, r.open_incident]),
    [['completed', null]],
  );
});

test('a deliberate stop (SIGTERM, as systemctl stop sends) reads as stopped, exit 0', async (t) => {
  const s = setup(t);
  const child = spawn(
    process.execPath,
    [deadmanBin, 'run', '--config', s.config, '--name', 'stoppable', '--', 'sleep', '60'],
    { cwd: s.dir, env: s.env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  t.after(() => child.kill('SIGKILL'));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  await waitFor(() => stderr.includes('run stoppable'), 10_000, 'the run to start');
  const running = await status(s, ['--json']);
  assert.deepEqual([running.code, (JSON.parse(running.stdout) as JsonRow[])[0]!.state], [0, 'running']);
  child.kill('SIGTERM');
  assert.equal(await exited, 'SIGTERM', 'deadman re-raises the stop, as systemd expects of a clean stop');
  const stopped = await status(s, ['--json']);
  const [row] = JSON.parse(stopped.stdout) as JsonRow[];
  assert.deepEqual([stopped.code, row!.state, row!.needs_attention], [0, 'stopped', false], stopped.stdout);
});
