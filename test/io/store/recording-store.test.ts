import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Store } from '../../../lib/io/store/store.ts';
import { RecordingStore } from '../../../lib/io/store/recording-store.ts';
import { tempDir } from '../../helpers/cli.ts';

/** A RecordingStore over a real file, with a hand-driven clock and the lines it says. */
function recordingStore(path: string, open: () => Store = () => new Store(path)) {
  const clock = { now: 0 };
  const lines: string[] = [];
  const store = new RecordingStore({
    path,
    open,
    logger: { log: (_level, message) => lines.push(message) },
    wall: () => Date.UTC(2026, 11, 1),
    monotonic: () => clock.now,
    retryMs: 1000,
  });
  return { store, clock, lines };
}

const countRuns = (store: Store) => store.get<{ n: number }>('SELECT count(*) AS n FROM runs')!.n;
const insertRun = (store: Store) =>
  store.insert('runs', { name: 'job', argv: [], cwd: '/', pid: 1, adapter: 'generic', started_at: 1 });

test('a damaged database is moved aside, with one line, and a fresh one takes its place', (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'deadman.db');
  writeFileSync(path, Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(4000, 0x5a)]));
  const { store, lines } = recordingStore(path);
  assert.equal(store.recording, true);
  assert.equal(store.write('the run', insertRun), 1);
  assert.equal(lines.length, 1);
  assert.match(
    lines[0]!,
    /database is damaged .*; moved it aside to .*deadman\.db\.corrupt-2026-12-01T00-00-00-000Z and started a fresh one/,
  );
  assert.ok(readdirSync(dir).some((f) => f.startsWith('deadman.db.corrupt-')));
  store.close();
});

test('a store that cannot be opened says so once, drops writes, and records again when it can', (t) => {
  const path = join(tempDir(t), 'deadman.db');
  let openable = false;
  const { store, clock, lines } = recordingStore(path, () => {
    if (!openable) throw Object.assign(new Error('attempt to write a readonly database'), { errcode: 8 });
    return new Store(path);
  });
  assert.equal(store.recording, false);
  for (let i = 0; i < 5; i++) assert.equal(store.write('events', insertRun), null);
  assert.equal(lines.length, 1, 'said once');
  assert.match(lines[0]!, /^not recording anything: .*readonly database\); the work goes on unrecorded/);
  openable = true;
  assert.equal(store.write('events', insertRun), null, 'not retried before retryMs');
  clock.now = 1000;
  assert.equal(store.write('events', insertRun), 1);
  assert.deepEqual(
    lines.slice(1),
    [`recording again in ${path} (6 records dropped while it could not be written)`],
    'the drops are counted',
  );
  store.close();
});

test('a write that fails (the file gone read-only, full, locked) is said once and retried later', (t) => {
  const path = join(tempDir(t), 'deadman.db');
  const { store, clock, lines } = recordingStore(path);
  let failing = true;
  const flaky = (s: Store) => {
    if (failing) throw Object.assign(new Error('database or disk is full'), { errcode: 13 });
    return insertRun(s);
  };
  assert.equal(store.write('events', flaky), null);
  assert.equal(store.write('events', flaky), null);
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /^not recording events: .*disk is full/);
  failing = false;
  clock.now = 999;
  assert.equal(store.write('events', flaky), null);
  clock.now = 1000;
  assert.equal(store.write('events', flaky), 1);
  assert.equal(
    store.write('events', (s) => countRuns(s)),
    1,
  );
  assert.equal(lines.length, 2);
  store.close();
  assert.ok(existsSync(path));
});

test('a lock that outlasts the run: the records dropped are counted in one line when it ends', (t) => {
  const path = join(tempDir(t), 'deadman.db');
  const { store, clock, lines } = recordingStore(path);
  const locked = () => {
    throw Object.assign(new Error('database is locked'), { errcode: 5 });
  };
  for (let i = 0; i < 3; i++) {
    assert.equal(store.write('events', locked), null);
    clock.now += 1000;
  }
  assert.equal(lines.length, 1, 'said once');
  assert.match(
    lines[0]!,
    /locked by another writer .*the work's output does not wait for it: records are dropped, and counted, until the lock is free \(tried again every 1s\)/,
  );
  store.close();
  assert.deepEqual(lines.slice(1), [
    `3 records of this run were dropped: ${path} stayed locked by another writer until the end`,
  ]);
});
