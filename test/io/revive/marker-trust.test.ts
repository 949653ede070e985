import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { newMarker, withSessionId, type Marker } from '../../../lib/core/revive/marker.ts';
import {
  listMarkers,
  markerPath,
  readMarker,
  removeStaleTempFiles,
  writeMarker,
} from '../../../lib/io/revive/markers.ts';
import { tempDir } from '../../helpers/cli.ts';

const ID = '01a23013-27f3-73e2-b3cb-86b68ffb84d0';

function sample(name = 'job'): Marker {
  return withSessionId(
    newMarker({
      name,
      adapter: 'codex',
      argv: ['codex', 'exec', '--json', 'task'],
      cwd: '/repo',
      owner: null,
      now: 1_000,
    }),
    ID,
    2_000,
  );
}

function stateWithMarker(t: { after(fn: () => void): void }) {
  const state = join(tempDir(t), 'state');
  const markers = join(state, 'markers');
  writeMarker(markers, sample());
  return { state, markers, path: markerPath(markers, 'job') };
}

function edit(path: string, change: (value: Record<string, unknown>) => void): void {
  const value = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  change(value);
  writeFileSync(path, JSON.stringify(value));
}

async function assertRefused(markers: string, why: RegExp, movedAside: boolean): Promise<void> {
  const read = await readMarker(markers, 'job', { now: Date.UTC(2026, 11, 1) });
  assert.equal(read.status, 'refused', JSON.stringify(read));
  if (read.status !== 'refused') return;
  assert.ok(!read.problem.includes('\n'), read.problem);
  assert.match(read.problem, why);
  assert.equal(existsSync(join(markers, 'job.json')), !movedAside);
  if (movedAside)
    assert.ok(
      readdirSync(markers).includes('job.json.refused-2026-12-01T00-00-00-000Z'),
      readdirSync(markers).join(' '),
    );
}

test('an edited argv or an added resume flag breaks the MAC: refused and moved aside', async (t) => {
  const argv = stateWithMarker(t);
  edit(argv.path, (value) => (value.argv = ['/bin/sh', '-c', 'touch /tmp/PWNED']));
  await assertRefused(argv.markers, /MAC does not match/, true);

  const flags = stateWithMarker(t);
  edit(
    flags.path,
    (value) => (value.argv = ['codex', 'exec', '--json', '--dangerously-bypass-approvals-and-sandbox', 'task']),
  );
  await assertRefused(flags.markers, /MAC does not match/, true);

  const unsigned = stateWithMarker(t);
  edit(unsigned.path, (value) => delete value.mac);
  await assertRefused(unsigned.markers, /not written by deadman/, true);
  assert.equal((await listMarkers(unsigned.markers)).length, 0, 'a marker moved aside is not listed again');
});

test('a marker file of another uid is refused, even with a valid MAC', async (t) => {
  if (process.geteuid?.() !== 0) return t.skip('needs root to write as another uid');
  const s = stateWithMarker(t);
  const outer = tempDir(t);
  chmodSync(outer, 0o711);
  const scratch = join(outer, 'nobody');
  mkdirSync(scratch, { mode: 0o777 });
  chmodSync(scratch, 0o777);
  const forged = join(scratch, 'job.json');
  const written = spawnSync(
    'setpriv',
    ['--reuid=65534', '--regid=65534', '--clear-groups', 'sh', '-c', 'cat > "$1"', 'sh', forged],
    { input: readFileSync(s.path) },
  );
  assert.equal(written.status, 0, String(written.stderr));
  renameSync(forged, s.path);
  await assertRefused(s.markers, /belongs to uid 65534/, true);
});

test('a marker that is a symlink is refused; so is every marker in a 0777 or symlinked directory, and none is written there', async (t) => {
  const link = stateWithMarker(t);
  const elsewhere = join(tempDir(t), 'elsewhere.json');
  renameSync(link.path, elsewhere);
  symlinkSync(elsewhere, link.path);
  await assertRefused(link.markers, /is a symlink/, true);

  const open = stateWithMarker(t);
  chmodSync(open.markers, 0o777);
  await assertRefused(open.markers, /writable by group or others \(mode 777/, false);
  assert.throws(() => writeMarker(open.markers, sample('other')), /not writing markers there/);

  const openState = stateWithMarker(t);
  chmodSync(openState.state, 0o777);
  await assertRefused(openState.markers, /writable by group or others/, false);

  const linked = stateWithMarker(t);
  const real = join(tempDir(t), 'real-markers');
  renameSync(linked.markers, real);
  symlinkSync(real, linked.markers);
  await assertRefused(linked.markers, /is a symlink/, false);
  assert.throws(() => writeMarker(linked.markers, sample('other')), /is a symlink/);
  assert.equal(existsSync(join(real, 'other.json')), false);
});

test('a marker of another state directory (another key) is refused', async (t) => {
  const mine = stateWithMarker(t);
  const theirs = stateWithMarker(t);
  renameSync(theirs.path, mine.path);
  await assertRefused(mine.markers, /MAC does not match/, true);
});

test("temp files of writes cut short by a SIGKILL are removed; a live writer's is kept", (t) => {
  const dir = tempDir(t);
  const dead = spawnSync('true').pid!;
  writeFileSync(join(dir, `.job.${dead}.0123abcd.tmp`), '{"half');
  writeFileSync(join(dir, `.job.${process.pid}.89abcdef.tmp`), '{"writing');
  writeFileSync(join(dir, 'notes.tmp'), 'not ours');
  assert.deepEqual(removeStaleTempFiles(dir), [`.job.${dead}.0123abcd.tmp`]);
  assert.deepEqual(readdirSync(dir).sort(), [`.job.${process.pid}.89abcdef.tmp`, 'notes.tmp']);
});

test('a state directory that is sticky like /tmp may hold the markers directory; one writable by others without the sticky bit may not', async (t) => {
  const parent = join(tempDir(t), 'shared');
  mkdirSync(parent);
  chmodSync(parent, 0o1777);
  const markers = join(parent, 'markers');
  writeMarker(markers, sample());
  assert.equal(
    (await readMarker(markers, 'job', { now: 3_000 })).status,
    'ok',
    'nobody else can rename the markers directory out of a sticky one',
  );
  chmodSync(parent, 0o777);
  assert.throws(() => writeMarker(markers, sample()), /writable by group or others/);
});
