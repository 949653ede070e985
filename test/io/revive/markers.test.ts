import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  markInterrupted,
  markRevived,
  newMarker,
  withSessionId,
  type Marker,
} from '../../../lib/core/revive/marker.ts';
import { currentOwner, listMarkers, markerPath, readMarker, writeMarker } from '../../../lib/io/revive/markers.ts';
import { settleEndedResume } from '../../../lib/io/revive/revive-log.ts';
import { isOwnerAlive, readProcStat } from '../../../lib/io/process/process-identity.ts';
import { repoRoot, tempDir } from '../../helpers/cli.ts';
import { fixturePath } from '../../helpers/fixtures.ts';

function sample(name = 'agent'): Marker {
  const marker = newMarker({
    name,
    adapter: 'codex',
    argv: ['codex', 'exec', '--json', 'task'],
    cwd: '/repo',
    owner: currentOwner(),
    now: 1_000,
  });
  return withSessionId(marker, '01a23013-27f3-73e2-b3cb-86b68ffb84d0', 2_000);
}

test('written atomically with private modes, read back equal, no temp file left', async (t) => {
  const dir = join(tempDir(t), 'markers');
  writeMarker(dir, sample());
  writeMarker(dir, { ...sample(), reviveCount: 2 });
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  assert.equal(statSync(markerPath(dir, 'agent')).mode & 0o777, 0o600);
  assert.deepEqual(readdirSync(dir).sort(), ['.marker-key', 'agent.json']);
  assert.equal(statSync(join(dir, '.marker-key')).mode & 0o777, 0o600, 'the MAC key is private');
  assert.deepEqual(await readMarker(dir, 'agent'), {
    status: 'ok',
    name: 'agent',
    marker: { ...sample(), reviveCount: 2 },
  });
  assert.deepEqual(await readMarker(dir, 'other'), { status: 'missing', name: 'other' });
  assert.throws(() => markerPath(dir, '../escape'), /not a plain name/);
});

test('cut in half, garbage, empty or a directory: one warning line, never a throw', async (t) => {
  const dir = tempDir(t);
  writeMarker(dir, sample('signed'));
  const good = readFileSync(markerPath(dir, 'signed'), 'utf8');
  const damaged: Record<string, string> = {
    half: good.slice(0, good.length / 2),
    garbage: '\u0000\u00ff\u0010 not json at all',
    empty: '',
    renamed: good,
  };
  for (const [name, text] of Object.entries(damaged)) writeFileSync(join(dir, `${name}.json`), text);
  mkdirSync(join(dir, 'folder.json'));
  for (const name of [...Object.keys(damaged), 'folder']) {
    const read = await readMarker(dir, name);
    assert.equal(read.status, 'problem', name);
    if (read.status !== 'problem') continue;
    assert.ok(!read.problem.includes('\n'), read.problem);
    assert.match(read.problem, new RegExp(`^revive marker .*${name}\\.json .*; not reviving "${name}"`));
  }
});

test('listMarkers: good and damaged markers by name, temp files and other files ignored', async (t) => {
  const dir = tempDir(t);
  writeMarker(dir, sample('b'));
  writeMarker(dir, sample('a'));
  writeFileSync(join(dir, 'c.json'), '{');
  writeFileSync(join(dir, '.a.123.abcd.tmp'), 'half');
  writeFileSync(join(dir, 'notes.txt'), 'x');
  const reads = await listMarkers(dir);
  assert.deepEqual(
    reads.map((r) => `${r.name}:${r.status}`),
    ['a:ok', 'b:ok', 'c:problem'],
  );
  assert.deepEqual(await listMarkers(join(dir, 'missing')), []);
});

test('a reader racing a writer in another process only ever sees whole markers', async (t) => {
  const dir = tempDir(t);
  writeMarker(dir, sample());
  const script = `import { writeMarker } from ${JSON.stringify(join(repoRoot, 'dist/lib/io/revive/markers.js'))};
    const m = JSON.parse(process.argv[1]);
    for (let i = 0; i < 300; i++) writeMarker(process.argv[2], { ...m, reviveCount: i, task: 'x'.repeat(i * 100) });`;
  const writer = spawn(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(sample()), dir], {
    stdio: 'inherit',
  });
  const exited = new Promise((resolve) => writer.on('exit', resolve));
  let reads = 0;
  while (writer.exitCode === null) {
    const read = await readMarker(dir, 'agent');
    assert.equal(read.status, 'ok', JSON.stringify(read));
    reads++;
    await new Promise((resolve) => setImmediate(resolve)); // let the child's exit be noticed
  }
  assert.equal(await exited, 0);
  assert.ok(reads > 0);
  assert.equal((await readMarker(dir, 'agent')).status, 'ok');
});

test('owner liveness by pid and start time', async () => {
  assert.equal(isOwnerAlive(currentOwner()), true);
  assert.equal(isOwnerAlive(null), false);
  const own = readProcStat(process.pid)!;
  assert.equal(
    isOwnerAlive({ pid: process.pid, startTime: own.startTime + 1 }),
    false,
    'same pid, other start time: a reused pid',
  );
  assert.equal(isOwnerAlive({ pid: process.pid, startTime: null }), true, 'no start time: a live pid counts');
  const child = spawnSync('true');
  assert.equal(child.status, 0);
  assert.equal(isOwnerAlive({ pid: child.pid!, startTime: 1 }), false);
});

test('a detached resume that ended is settled from its log', async (t) => {
  const dir = tempDir(t);
  const dead = { pid: 999_999_999 % 4_000_000, startTime: 1 };
  const revived = (log: string) =>
    markRevived(markInterrupted(sample(), 'killed', 3_000), { owner: dead, runTag: null, detachedLog: log }, 4_000);
  const completed = await settleEndedResume(revived(fixturePath('agents', 'codex-failing-command.jsonl')), 5_000);
  assert.equal(completed.state, 'completed');
  assert.equal(completed.reviveCount, 0);
  const failedLog = join(dir, 'failed.log');
  writeFileSync(failedLog, '{"type":"thread.started","thread_id":"x"}\n{"type":"turn.started"}\n');
  const cut = await settleEndedResume(revived(failedLog), 5_000);
  assert.deepEqual([cut.state, cut.reviveCount], ['interrupted', 1]);
  const missing = await settleEndedResume(revived(join(dir, 'gone.log')), 5_000);
  assert.equal(missing.state, 'interrupted');
  const alive = markRevived(sample(), { owner: currentOwner(), runTag: null, detachedLog: failedLog }, 4_000);
  assert.equal(await settleEndedResume(alive, 5_000), alive, 'a running resume is left alone');
});
