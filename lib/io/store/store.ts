import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { closeSync, chmodSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { DeadmanError, ExitCode } from '../../exit-codes.ts';
import { MIGRATIONS, SCHEMA_VERSION } from './store-schema.ts';
import { ensurePrivateDir } from '../paths.ts';

/**
 * The only module that talks to SQLite. Rows go in through `insert` and the named helpers
 * below; readers get plain objects with JSON columns parsed back. Times are wall-clock
 * milliseconds since the epoch: these records are for people to read.
 */

export type Row = Record<string, SQLInputValue | boolean | object | undefined>;
type Table = 'runs' | 'events' | 'observations' | 'signals' | 'incidents' | 'incident_transitions' | 'diagnoses'
  | 'decisions' | 'actions' | 'verifications' | 'evidence_results' | 'revives';

/** Columns stored as JSON text (whatever the value) and parsed back when read. */
const JSON_COLUMNS = new Set(['argv', 'data', 'processes', 'evidence', 'target', 'detail']);
const SQLITE_MAGIC = 'SQLite format 3\0';

export interface StoreOptions {
  busyTimeoutMs?: number;
  eventsPerRun?: number;
  observationsPerRun?: number;
}

export class Store {
  readonly path: string;
  readonly db: DatabaseSync;
  private readonly eventsPerRun: number;
  private readonly observationsPerRun: number;
  private readonly statements = new Map<string, ReturnType<DatabaseSync['prepare']>>();
  private readonly insertsSincePrune = new Map<string, number>();

  constructor(path: string, options: StoreOptions = {}) {
    this.path = path;
    this.eventsPerRun = options.eventsPerRun ?? 5000;
    this.observationsPerRun = options.observationsPerRun ?? 500;
    refuseForeignFile(path);
    if (path !== ':memory:') ensurePrivateDir(dirname(path));
    try {
      this.db = new DatabaseSync(path, { timeout: options.busyTimeoutMs ?? 10_000 });
    } catch (error) {
      throw unusable(path, (error as Error).message);
    }
    if (path !== ':memory:') chmodSync(path, 0o600);
    try {
      this.db.exec('PRAGMA foreign_keys = ON');
      this.migrate();
      this.db.exec('PRAGMA journal_mode = WAL');
    } catch (error) {
      this.db.close();
      if (error instanceof DeadmanError) throw error;
      throw unusable(path, (error as Error).message);
    }
  }

  private migrate(): void {
    const version = this.get<{ user_version: number }>('PRAGMA user_version')!.user_version;
    if (version > SCHEMA_VERSION) {
      throw new DeadmanError(
        `${this.path}: database schema version ${version} is newer than this deadman understands (${SCHEMA_VERSION}); upgrade deadman or point --database elsewhere (the file was not changed)`,
        ExitCode.INTERNAL,
      );
    }
    for (let next = version; next < SCHEMA_VERSION; next++) {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const current = this.get<{ user_version: number }>('PRAGMA user_version')!.user_version;
        if (current === next) {
          this.db.exec(MIGRATIONS[next]!);
          this.db.exec(`PRAGMA user_version = ${next + 1}`);
        }
        this.db.exec('COMMIT');
      } catch (error) {
        this.db.exec('ROLLBACK');
        throw error;
      }
    }
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }

  private statement(sql: string) {
    let prepared = this.statements.get(sql);
    if (!prepared) {
      prepared = this.db.prepare(sql);
      this.statements.set(sql, prepared);
    }
    return prepared;
  }

  /** Inserts one row; objects and arrays are stored as JSON text. Returns the new id. */
  insert(table: Table, row: Row): number {
    const keys = Object.keys(row).filter((k) => row[k] !== undefined);
    const sql = `INSERT INTO ${table} (${keys.join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`;
    const values = keys.map((k) => toColumn(row[k], k));
    const result = this.statement(sql).run(...values);
    return Number(result.lastInsertRowid);
  }

  update(table: Table, id: number, changes: Row): void {
    const keys = Object.keys(changes).filter((k) => changes[k] !== undefined);
    if (keys.length === 0) return;
    const sql = `UPDATE ${table} SET ${keys.map((k) => `${k} = ?`).join(', ')} WHERE id = ?`;
    this.statement(sql).run(...keys.map((k) => toColumn(changes[k], k)), id);
  }

  all<T>(sql: string, ...params: SQLInputValue[]): T[] {
    return this.statement(sql).all(...params).map((row) => fromRow(row as Record<string, unknown>) as T);
  }

  get<T>(sql: string, ...params: SQLInputValue[]): T | undefined {
    const row = this.statement(sql).get(...params);
    return row === undefined ? undefined : (fromRow(row as Record<string, unknown>) as T);
  }

  /** Adds a raw+normalized event, keeping at most `eventsPerRun` per run (oldest dropped). */
  recordEvent(runId: number, row: Row): number {
    const id = this.insert('events', { run_id: runId, ...row });
    this.keepNewest('events', runId, this.eventsPerRun);
    return id;
  }

  recordObservation(runId: number, at: number, processes: object): number {
    const id = this.insert('observations', { run_id: runId, at, processes });
    this.keepNewest('observations', runId, this.observationsPerRun);
    return id;
  }

  /** Bounds a per-run table cheaply: trims once every tenth of the limit, not on every insert. */
  private keepNewest(table: 'events' | 'observations', runId: number, limit: number): void {
    const key = `${table}:${runId}`;
    const count = (this.insertsSincePrune.get(key) ?? 0) + 1;
    if (count < Math.max(1, Math.floor(limit / 10))) {
      this.insertsSincePrune.set(key, count);
      return;
    }
    this.insertsSincePrune.set(key, 0);
    this.statement(`DELETE FROM ${table} WHERE run_id = ? AND id <= (SELECT id FROM ${table} WHERE run_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)`)
      .run(runId, runId, limit);
  }

  /** Retention: drops finished runs (and everything hanging off them) beyond age or count. */
  prune(now: number, maxAgeMs: number, maxRuns: number): number {
    const cutoff = now - maxAgeMs;
    const stale = this.all<{ id: number }>(
      `SELECT id FROM runs WHERE ended_at IS NOT NULL AND (ended_at < ? OR id NOT IN (SELECT id FROM runs ORDER BY id DESC LIMIT ?))`,
      cutoff, maxRuns,
    );
    for (const { id } of stale) this.statement('DELETE FROM runs WHERE id = ?').run(id);
    this.statement('DELETE FROM incidents WHERE run_id IS NULL AND updated_at < ?').run(cutoff);
    this.statement('DELETE FROM decisions WHERE incident_id IS NULL AND at < ?').run(cutoff);
    this.statement('DELETE FROM actions WHERE incident_id IS NULL AND at < ?').run(cutoff);
    this.statement('DELETE FROM evidence_results WHERE run_id IS NULL AND at < ?').run(cutoff);
    this.statement('DELETE FROM revives WHERE at < ?').run(cutoff);
    return stale.length;
  }

  transaction<T>(work: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }
}

function toColumn(value: unknown, column: string): SQLInputValue {
  if (value === undefined || value === null) return null;
  if (JSON_COLUMNS.has(column)) return JSON.stringify(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'object' && !(value instanceof Uint8Array)) return JSON.stringify(value);
  return value as SQLInputValue;
}

function fromRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    out[key] = JSON_COLUMNS.has(key) && typeof value === 'string' ? safeJson(value) : value;
  }
  return out;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A file that is not SQLite is refused before SQLite touches it, so it is never overwritten. */
function refuseForeignFile(path: string): void {
  if (path === ':memory:' || !existsSync(path)) return;
  const size = statSync(path).size;
  if (size === 0) return;
  const header = Buffer.alloc(16);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, header, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  if (header.toString('latin1') !== SQLITE_MAGIC) throw unusable(path, 'not an SQLite database');
}

function unusable(path: string, why: string): DeadmanError {
  return new DeadmanError(
    `${path}: database is unusable (${why}); move it aside or pass --database with another path (the file was not changed)`,
    ExitCode.INTERNAL,
  );
}
