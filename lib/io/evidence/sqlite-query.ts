import { DatabaseSync } from 'node:sqlite';
import { calendarDay, localDay, qualifiedColumn, quoteValue } from '../../core/evidence/sql.ts';

/**
 * Runs one `kind = "sql"` query against a SQLite file, as a child process of its own
 * (lib/io/evidence/sql.ts starts it): node:sqlite is synchronous and cannot be interrupted, so
 * only a process of its own can be stopped when a query outlives its timeout. The database is
 * opened read-only; the query only ever runs as a subquery that is counted. The child's entry
 * is sqlite-query-child.ts.
 */

export interface SqliteRequest {
  path: string;
  /** One SELECT, trailing semicolons dropped. */
  statement: string;
  /** The column whose values must fall on today, or null. */
  datedToday: string | null;
  /** deadman's clock: what "today" is. */
  now: number;
  /** How long to wait for a lock held by a writer. */
  busyTimeoutMs: number;
}

export type SqliteAnswer =
  { rows: number; datedToday: number | null; today: string | null; notADate: string | null } | { error: string };

export function querySqlite(request: SqliteRequest): SqliteAnswer {
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(request.path, { readOnly: true, timeout: request.busyTimeoutMs });
    const subquery = `(\n${request.statement}\n) AS deadman_query`;
    if (request.datedToday === null) {
      const row = db.prepare(`SELECT count(*) AS n FROM ${subquery}`).get() as { n: number };
      return { rows: Number(row.n), datedToday: null, today: null, notADate: null };
    }
    const today = localDay(request.now);
    let rows = 0;
    let dated = 0;
    let notADate: string | null = null;
    const values = db.prepare(`SELECT ${qualifiedColumn(request.datedToday)} AS v FROM ${subquery}`).iterate();
    for (const { v } of values as Iterable<{ v: unknown }>) {
      rows++;
      const day = calendarDay(v);
      if (day === today) dated++;
      else if (day === undefined) notADate ??= quoteValue(v);
    }
    return { rows, datedToday: dated, today, notADate };
  } catch (error) {
    return { error: (error as Error).message.split('\n')[0]! };
  } finally {
    db?.close();
  }
}
