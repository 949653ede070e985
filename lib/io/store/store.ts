import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { createLineRedactor, type LineRedactor, type Redactor } from '../../core/redact/redact.ts';
import { checkSchemaVersion, migrateSchema, rollbackQuietly } from './store-migrate.ts';
import { foreignFileError, isForeignFile, storeError } from './store-errors.ts';
import { openForWriting, openReadOnly, refuseLinks } from './store-open.ts';
import { fromRow, toColumn } from './store-columns.ts';

/**
 * The only module that talks to SQLite. Rows go in through `insert` and the named helpers
 * below — every string redacted on the way in — and readers get plain objects with JSON
 * columns parsed back. Times are wall-clock milliseconds since the epoch: these records are
 * for people to read. A read-only store (status, report, incidents) creates, migrates and
 * chmods nothing, so it works on a read-only file system.
 */

export type Row = Record<string, SQLInputValue | boolean | object | undefined>;
type Table =
  | 'runs'
  | 'events'
  | 'observations'
  | 'signals'
  | 'incidents'
  | 'incident_transitions'
  | 'diagnoses'
  | 'decisions'
  | 'actions'
  | 'verifications'
  | 'evidence_results'
  | 'revives'
  | 'incident_recurrences';

export interface StoreOptions {
  readOnly?: boolean;
  busyTimeoutMs?: number;
  eventsPerRun?: number;
  observationsPerRun?: number;
  /** Applied to every value written; rows are stored redacted or not at all. */
  redactor?: Redactor;
}

/** Rows that outlive the run or incident they hung off (or never had one), by the column that says when. */
const ORPHANS = [
  ['incidents', 'run_id', 'updated_at'],
  ['decisions', 'incident_id', 'at'],
  ['actions', 'incident_id', 'at'],
  ['evidence_results', 'run_id', 'at'],
  ['revives', 'NULL', 'at'],
] as const;

export class Store {
  readonly path: string;
  readonly db: DatabaseSync;
  readonly readOnly: boolean;
  /** What opening changed that a person should hear of (a file's mode tightened), one line each. */
  readonly notes: string[] = [];
  private readonly eventsPerRun: number;
  private readonly observationsPerRun: number;
  private readonly redact: (value: unknown) => unknown;
  private readonly statements = new Map<string, ReturnType<DatabaseSync['prepare']>>();
  private readonly insertsSincePrune = new Map<string, number>();
  /** Per run and stream: a PEM block's lines are separate events, hidden as the block they make. */
  private readonly eventLines = new Map<string, LineRedactor>();
  private readonly redactor: Redactor | undefined;

  constructor(path: string, options: StoreOptions = {}) {
    this.path = path;
    this.readOnly = options.readOnly ?? false;
    this.eventsPerRun = options.eventsPerRun ?? 5000;
    this.observationsPerRun = options.observationsPerRun ?? 500;
    this.redactor = options.redactor;
    this.redact = options.redactor ? (value) => options.redactor!.value(value) : (value) => value;
    // A link, or a file that is not SQLite, is refused before SQLite touches it, so nothing is written through or over it.
    refuseLinks(path);
    if (isForeignFile(path)) throw foreignFileError(path);
    this.db = this.readOnly
      ? openReadOnly(path, options.busyTimeoutMs)
      : openForWriting(path, options.busyTimeoutMs, this.notes);
    try {
      if (this.readOnly) {
        checkSchemaVersion(this.db, path);
        return;
      }
      this.db.exec('PRAGMA foreign_keys = ON');
      migrateSchema(this.db, path);
      this.db.exec('PRAGMA journal_mode = WAL');
      // With WAL, NORMAL syncs at checkpoints, not at every commit: a crash or SIGKILL of
      // deadman loses nothing committed (the OS has it), a power cut at most the last commits
      // before the checkpoint. FULL cost a run -- true five fsyncs, and a batch every 100 ms
      // one more each, each blocking the event loop that feeds the watchdog.
      this.db.exec('PRAGMA synchronous = NORMAL');
    } catch (error) {
      this.db.close();
      throw storeError(path, error);
    }
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }

  /** A value as this store would write it: for comparing with stored (redacted) columns. */
  redacted(text: string): string {
    return this.redact(text) as string;
  }

  /** A reader of a database no run has migrated yet may find a newer table missing. */
  hasTable(name: string): boolean {
    return this.get('SELECT 1 AS found FROM sqlite_master WHERE type = ? AND name = ?', 'table', name) !== undefined;
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
    const values = keys.map((k) => toColumn(this.redact(row[k]), k));
    const result = this.statement(sql).run(...values);
    return Number(result.lastInsertRowid);
  }

  update(table: Table, id: number, changes: Row): void {
    const keys = Object.keys(changes).filter((k) => changes[k] !== undefined);
    if (keys.length === 0) return;
    const sql = `UPDATE ${table} SET ${keys.map((k) => `${k} = ?`).join(', ')} WHERE id = ?`;
    this.statement(sql).run(...keys.map((k) => toColumn(this.redact(changes[k]), k)), id);
  }

  all<T>(sql: string, ...params: SQLInputValue[]): T[] {
    return this.statement(sql)
      .all(...params)
      .map((row) => fromRow(row as Record<string, unknown>) as T);
  }

  get<T>(sql: string, ...params: SQLInputValue[]): T | undefined {
    const row = this.statement(sql).get(...params);
    return row === undefined ? undefined : (fromRow(row as Record<string, unknown>) as T);
  }

  /** Adds raw+normalized events in one transaction, keeping at most `eventsPerRun` per run (oldest dropped). */
  recordEvents(runId: number, rows: Row[]): void {
    this.transaction(() => {
      for (const row of rows) this.insert('events', { run_id: runId, ...row, raw: this.eventLine(runId, row) });
    });
    this.keepNewest('events', runId, this.eventsPerRun, rows.length);
  }

  private eventLine(runId: number, row: Row): Row['raw'] {
    if (!this.redactor || typeof row.raw !== 'string') return row.raw;
    const key = `${runId}:${String(row.stream)}`;
    let lines = this.eventLines.get(key);
    if (!lines) this.eventLines.set(key, (lines = createLineRedactor(this.redactor.text)));
    return lines.line(row.raw);
  }

  recordObservation(runId: number, at: number, processes: object): number {
    const id = this.insert('observations', { run_id: runId, at, processes });
    this.keepNewest('observations', runId, this.observationsPerRun);
    return id;
  }

  /** Bounds a per-run table cheaply: trims once every tenth of the limit, not on every insert. */
  private keepNewest(table: 'events' | 'observations', runId: number, limit: number, inserted = 1): void {
    const key = `${table}:${runId}`;
    const count = (this.insertsSincePrune.get(key) ?? 0) + inserted;
    if (count < Math.max(1, Math.floor(limit / 10))) {
      this.insertsSincePrune.set(key, count);
      return;
    }
    this.insertsSincePrune.set(key, 0);
    this.statement(
      `DELETE FROM ${table} WHERE run_id = ? AND id <= (SELECT id FROM ${table} WHERE run_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)`,
    ).run(runId, runId, limit);
  }

  /**
   * Retention: drops finished runs (and all hanging off them) beyond age or count, oldest first,
   * at most `limit` (a backlog spread over many calls; ORPHANS by age, as many). Fewer dropped
   * than `limit`: none left to drop now.
   */
  prune(now: number, maxAgeMs: number, maxRuns: number, limit = Number.MAX_SAFE_INTEGER): number {
    const cutoff = now - maxAgeMs;
    const stale = this.all<{ id: number }>(
      `SELECT id FROM runs WHERE ended_at IS NOT NULL AND (ended_at < ? OR id <= (SELECT id FROM runs ORDER BY id DESC LIMIT 1 OFFSET ?)) ORDER BY id LIMIT ?`,
      cutoff,
      maxRuns,
      limit,
    );
    for (const { id } of stale) this.statement('DELETE FROM runs WHERE id = ?').run(id);
    for (const [table, owner, at] of ORPHANS)
      this.statement(
        `DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE ${owner} IS NULL AND ${at} < ? LIMIT ?)`,
      ).run(cutoff, limit);
    return stale.length;
  }

  transaction<T>(work: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      rollbackQuietly(this.db);
      throw error;
    }
  }
}
