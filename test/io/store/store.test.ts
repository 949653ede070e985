import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Store } from '../../../lib/io/store/store.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../lib/io/store/store-schema.ts';
import { closedAsLost, type RecordedRunEnd } from '../../../lib/core/status/run-presence.ts';
import { DeadmanError } from '../../../lib/exit-codes.ts';
import { StoreError } from '../../../lib/io/store/store-errors.ts';
import { createRedactor, REDACTED } from '../../../lib/core/redact/redact.ts';
import { spawn } from 'node:child_process';
import { tempDir } from '../../helpers/cli.ts';
import { fillFinishedRuns } from '../../helpers/crowded-database.ts';

const run = (store: Store, name = 'job') =>
  store.insert('runs', { name, argv: ['a', 'b c'], cwd: '/', pid: 1, adapter: 'generic', started_at: 1 });

test('migrates an empty file, reopens it, and keeps rows (0600, WAL)', (t) => {
  const path = join(tempDir(t), 'sub', 'deadman.db');
  const store = new Store(path);
  const id = run(store);
  store.close();
  assert.equal(statSync(path).mode & 0o777, 0o600);
  assert.equal(statSync(join(path, '..')).mode & 0o777, 0o700);
  const again = new Store(path);
  assert.deepEqual(again.get<{ argv: string[] }>('SELECT argv FROM runs WHERE id = ?', id)?.argv, ['a', 'b c']);
  assert.equal(again.get<{ user_version: number }>('PRAGMA user_version')?.user_version, SCHEMA_VERSION);
  assert.equal(again.get<{ journal_mode: string }>('PRAGMA journal_mode')?.journal_mode, 'wal');
  again.close();
});

test('a second process holding a write lock makes us wait, not fail', async (t) => {
  const path = join(tempDir(t), 'deadman.db');
  new Store(path).close();
  const holder = `
    const { DatabaseSync } = require('node:sqlite');
    const db = new DatabaseSync(${JSON.stringify(path)});
    db.exec('BEGIN IMMEDIATE');
    db.exec("INSERT INTO runs (name, argv, cwd, pid, adapter, started_at) VALUES ('other', '[]', '/', 2, 'generic', 1)");
    process.stdout.write('locked\\n');
    setTimeout(() => { db.exec('COMMIT'); db.close(); }, 700);`;
  // Handshake, not a fixed sleep: the insert starts only once the other process holds the lock.
  const child = spawn(process.execPath, ['-e', holder], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  const store = new Store(path, { busyTimeoutMs: 5000 });
  const started = performance.now();
  run(store, 'mine');
  const waited = performance.now() - started;
  await exited;
  assert.ok(waited > 50, `insert should have waited for the lock (waited ${waited.toFixed(0)} ms)`);
  assert.deepEqual(
    store.all<{ name: string }>('SELECT name FROM runs ORDER BY id').map((r) => r.name),
    ['other', 'mine'],
  );
  store.close();
});

test('a database from a newer deadman is refused and left untouched', (t) => {
  const path = join(tempDir(t), 'deadman.db');
  const db = new DatabaseSync(path);
  db.exec(`CREATE TABLE future (x); PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
  db.close();
  const before = readFileSync(path);
  assert.throws(
    () => new Store(path),
    (error: unknown) =>
      error instanceof DeadmanError &&
      /newer than this deadman understands/.test(error.message) &&
      !error.message.includes('\n'),
  );
  assert.deepEqual(readFileSync(path), before);
});

test("a corrupt or foreign file is refused and left untouched (moving a damaged one aside is the run's choice)", (t) => {
  const dir = tempDir(t);
  const foreign = join(dir, 'notes.db');
  writeFileSync(foreign, 'these are my notes, not a database\n');
  assert.throws(
    () => new Store(foreign),
    (error: unknown) =>
      error instanceof StoreError && error.problem === 'foreign' && /not an SQLite database/.test(error.message),
  );
  assert.equal(readFileSync(foreign, 'utf8'), 'these are my notes, not a database\n');

  const damaged = join(dir, 'damaged.db');
  const good = new Store(damaged);
  for (let i = 0; i < 200; i++) run(good, `r${i}`);
  good.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  good.close();
  const bytes = readFileSync(damaged);
  bytes.fill(0x5a, 100, bytes.length);
  writeFileSync(damaged, bytes);
  assert.throws(
    () => new Store(damaged),
    (error: unknown) => error instanceof StoreError && error.problem === 'corrupt' && /damaged/.test(error.message),
  );
  assert.deepEqual(readFileSync(damaged), bytes);
});

test('events are bounded per run and retention drops old finished runs with their rows', (t) => {
  const store = new Store(join(tempDir(t), 'deadman.db'), { eventsPerRun: 50 });
  const id = run(store);
  for (let i = 0; i < 500; i += 10) {
    store.recordEvents(
      id,
      Array.from({ length: 10 }, (_, n) => ({ at: i + n, stream: 'stdout', kind: 'line', raw: `line ${i + n}` })),
    );
  }
  const kept = store.all<{ raw: string }>('SELECT raw FROM events WHERE run_id = ? ORDER BY id', id);
  assert.ok(kept.length <= 60 && kept.length >= 50, `kept ${kept.length}`);
  assert.equal(kept.at(-1)?.raw, 'line 499');
  store.update('runs', id, { ended_at: 1000 });
  const fresh = run(store, 'fresh');
  store.update('runs', fresh, { ended_at: 10_000_000 });
  assert.equal(store.prune(10_000_000, 5_000_000, 100), 1);
  assert.equal(store.get<{ n: number }>('SELECT count(*) AS n FROM events')?.n, 0);
  assert.deepEqual(
    store.all<{ name: string }>('SELECT name FROM runs').map((r) => r.name),
    ['fresh'],
  );
  store.close();
});

test('retention drops at most `limit` runs a call, the oldest first, using an index for every table it cascades through', (t) => {
  const path = join(tempDir(t), 'deadman.db');
  fillFinishedRuns(path, 250, { endedAt: 5_000 });
  const store = new Store(path);
  assert.equal(store.prune(10_000, 1_000_000, 20, 100), 100);
  assert.equal(store.get<{ n: number }>('SELECT min(id) AS n FROM runs')?.n, 101, 'the oldest went first');
  assert.equal(store.get<{ n: number }>('SELECT count(*) AS n FROM incidents')?.n, 150, 'their incidents with them');
  assert.equal(store.prune(10_000, 1_000_000, 20, 100), 100);
  assert.equal(store.prune(10_000, 1_000_000, 20, 100), 30, 'fewer than the limit: nothing left to drop');
  assert.equal(store.get<{ n: number }>('SELECT count(*) AS n FROM runs')?.n, 20);
  // Without an index on a child table's key, every deleted run scanned that table whole (issue 38: 640 s for 9,000 runs).
  for (const [table, key] of [
    ['events', 'run_id'],
    ['observations', 'run_id'],
    ['signals', 'run_id'],
    ['incidents', 'run_id'],
    ['incidents', 'signal_id'],
    ['evidence_results', 'run_id'],
    ['incident_recurrences', 'run_id'],
    ['incident_transitions', 'incident_id'],
    ['diagnoses', 'incident_id'],
    ['decisions', 'incident_id'],
    ['actions', 'incident_id'],
    ['verifications', 'incident_id'],
    ['incident_recurrences', 'incident_id'],
  ] as const) {
    const plan = store
      .all<{ detail: string }>(`EXPLAIN QUERY PLAN SELECT 1 FROM ${table} WHERE ${key} = 1`)
      .map((row) => row.detail)
      .join(' ');
    assert.match(plan, /USING (COVERING )?INDEX/, `${table}.${key}: ${plan}`);
  }
  store.close();
});

test('an existing directory of the database keeps its mode; a created one is private', (t) => {
  const dir = tempDir(t);
  chmodSync(dir, 0o755);
  new Store(join(dir, 'deadman.db')).close();
  assert.equal(statSync(dir).mode & 0o777, 0o755, "the operator's directory was not touched");
  new Store(join(dir, 'a', 'b', 'deadman.db')).close();
  assert.equal(statSync(join(dir, 'a')).mode & 0o777, 0o700);
  assert.equal(statSync(join(dir, 'a', 'b')).mode & 0o777, 0o700);
});

test('every value written is redacted first, in inserts and updates, JSON columns included', (t) => {
  const store = new Store(join(tempDir(t), 'deadman.db'), {
    redactor: createRedactor({ env: { DEPLOY_TOKEN: 'planted-token-value' } }),
  });
  const id = store.insert('runs', {
    name: 'job',
    argv: ['curl', '-u', 'me:planted-token-value', 'https://me:hunter22@host/x'],
    cwd: '/',
    pid: 1,
    adapter: 'generic',
    started_at: 1,
  });
  store.update('runs', id, { reason: 'failed: password=hunter22' });
  const row = store.get<{ argv: string[]; reason: string }>('SELECT argv, reason FROM runs WHERE id = ?', id)!;
  assert.deepEqual(row.argv, ['curl', '-u', `me:${REDACTED}`, `https://me:${REDACTED}@host/x`]);
  assert.equal(row.reason, `failed: password=${REDACTED}`);
  store.close();
});

test('a read-only store reads without migrating or changing the mode of the file', (t) => {
  const path = join(tempDir(t), 'deadman.db');
  const writer = new Store(path);
  run(writer);
  writer.close();
  chmodSync(path, 0o640);
  const reader = new Store(path, { readOnly: true });
  assert.equal(reader.all('SELECT id FROM runs').length, 1);
  assert.throws(
    () => reader.insert('runs', { name: 'x', argv: [], cwd: '/', pid: 1, adapter: 'generic', started_at: 1 }),
    /readonly/,
  );
  reader.close();
  assert.equal(statSync(path).mode & 0o777, 0o640);
});

test('commits sync at checkpoints, not one by one, and one SIGKILLed right after a commit keeps it', async (t) => {
  const path = join(tempDir(t), 'deadman.db');
  const store = new Store(path);
  assert.equal(store.get<{ synchronous: number }>('PRAGMA synchronous')!.synchronous, 1, 'NORMAL');
  store.close();
  // A writer killed with no chance to close: the commit is in the WAL the OS holds.
  const storeModule = new URL('../../../lib/io/store/store.js', import.meta.url).href;
  const writer = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `
    const { Store } = await import(${JSON.stringify(storeModule)});
    const store = new Store(${JSON.stringify(path)});
    store.insert('runs', { name: 'killed', argv: [], cwd: '/', pid: 1, adapter: 'generic', started_at: 1 });
    process.kill(process.pid, 'SIGKILL');`,
    ],
    { stdio: 'inherit' },
  );
  const [, signal] = await new Promise<[number | null, string | null]>((resolve) =>
    writer.once('exit', (...end) => resolve(end)),
  );
  assert.equal(signal, 'SIGKILL');
  const reader = new Store(path);
  t.after(() => reader.close());
  assert.deepEqual(reader.all<{ name: string }>('SELECT name FROM runs'), [{ name: 'killed' }]);
});

test('migration 6 marks the runs closed as lost before it (signal unknown or watchdog); a reader before it reads them lost too', (t) => {
  const path = join(tempDir(t), 'deadman.db');
  const db = new DatabaseSync(path);
  for (const migration of MIGRATIONS.slice(0, 5)) db.exec(migration);
  db.exec('PRAGMA user_version = 5');
  const row = (signal: string | null, outcome: string) =>
    db
      .prepare(
        `INSERT INTO runs (name, argv, cwd, pid, adapter, started_at, ended_at, signal, outcome) VALUES ('job', '[]', '/', 1, 'generic', 1, 2, ?, ?)`,
      )
      .run(signal, outcome);
  row('unknown', 'lost');
  row('watchdog', 'stalled');
  row('SIGTERM', 'stopped');
  row(null, 'completed');
  db.close();
  const before = new Store(path, { readOnly: true });
  assert.deepEqual(before.all<RecordedRunEnd>('SELECT * FROM runs ORDER BY id').map(closedAsLost), [
    true,
    true,
    false,
    false,
  ]);
  before.close();
  const migrated = new Store(path);
  assert.deepEqual(
    migrated.all<{ lost: number }>('SELECT lost FROM runs ORDER BY id').map((r) => r.lost),
    [1, 1, 0, 0],
  );
  assert.deepEqual(migrated.all<RecordedRunEnd>('SELECT * FROM runs ORDER BY id').map(closedAsLost), [
    true,
    true,
    false,
    false,
  ]);
  migrated.close();
});

test('a symlink at the database or beside it (-wal, -shm, -journal) is refused before anything opens it, writing or reading', (t) => {
  const dir = tempDir(t);
  const real = join(dir, 'real.db');
  new Store(real).close();
  const link = join(dir, 'link.db');
  symlinkSync(real, link);
  for (const readOnly of [false, true]) {
    assert.throws(
      () => new Store(link, { readOnly }),
      (error: unknown) =>
        error instanceof StoreError &&
        error.problem === 'link' &&
        error.message.startsWith(`${link}: a symbolic link (to ${real})`),
    );
  }
  for (const suffix of ['-wal', '-shm', '-journal']) {
    symlinkSync(join(dir, 'victim'), `${real}${suffix}`);
    assert.throws(
      () => new Store(real),
      (error: unknown) =>
        error instanceof StoreError && error.problem === 'link' && /remove the link/.test(error.message),
      suffix,
    );
    rmSync(`${real}${suffix}`);
  }
  assert.equal(existsSync(join(dir, 'victim')), false);
});
