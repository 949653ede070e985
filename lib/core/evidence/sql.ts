import type { SqlClaim } from '../config/config.ts';
import { baseName } from '../config/path-scope.ts';
import { formatDuration } from '../time/duration.ts';
import type { Verdict, VerdictState } from './evidence.ts';

/**
 * Verdicts on `kind = "sql"` claims, from the counts the io side got back (lib/io/evidence/sql.ts).
 * The database only counts; deadman judges. "Today" is the database's own date for Postgres
 * (`current_date`, in the session's time zone) and deadman's clock in the local zone for
 * SQLite, which has no clock of its own to ask.
 */

/** What one query answered, or why it did not. */
export type SqlOutcome =
  | {
      kind: 'answer';
      rows: number;
      /** Rows whose `dated_today` column falls on `today`; null when the claim has no `dated_today`. */
      datedToday: number | null;
      /** The date "today" was, as YYYY-MM-DD. */
      today: string | null;
      /** A value of the `dated_today` column that is no date (SQLite), quoted; null when all were dates. */
      notADate: string | null;
    }
  | { kind: 'failed'; error: string }
  | { kind: 'timed-out'; afterMs: number };

export function judgeSql(claim: SqlClaim, name: string, outcome: SqlOutcome): Verdict {
  const label = sqlDatabaseLabel(claim);
  const verdict = (state: VerdictState, reason: string): Verdict => ({
    claim: name,
    kind: 'sql',
    verdict: state,
    reason: `${label}: ${reason}`,
  });
  if (outcome.kind === 'failed') return verdict('unknown', outcome.error);
  if (outcome.kind === 'timed-out')
    return verdict('unknown', `the query timed out after ${formatDuration(outcome.afterMs)}`);
  const { min_rows: min, max_rows: max, dated_today: column } = claim.expect;
  const rows = plural(outcome.rows, 'row');
  if (min !== undefined && outcome.rows < min)
    return verdict('dead', `the query returned ${rows} (expected at least ${min})`);
  if (max !== undefined && outcome.rows > max)
    return verdict('dead', `the query returned ${rows} (expected at most ${max})`);
  if (column !== undefined) {
    const dated = outcome.datedToday ?? 0;
    if (dated === 0 && outcome.notADate !== null)
      return verdict('unknown', `${column} holds ${outcome.notADate}, which is not a date`);
    const clock = claim.postgres !== undefined ? "the database's clock" : "deadman's clock";
    if (dated === 0)
      return verdict(
        'dead',
        `no row has ${column} dated today (${outcome.today ?? 'today'} by ${clock}; ${rows} in all)`,
      );
    return verdict('alive', `${rows}, ${dated} with ${column} dated today`);
  }
  return verdict('alive', `the query returned ${rows}`);
}

/** How a claim's database is named in a reason: the file's name, or the URI without its password. */
export function sqlDatabaseLabel(claim: SqlClaim): string {
  return claim.sqlite !== undefined ? baseName(claim.sqlite) : splitPostgresUri(claim.postgres!).uri;
}

/**
 * A Postgres URI without its password, and the password (percent-decoded) to hand to psql
 * through PGPASSWORD: neither a process list nor a reason nor a record ever holds it. The
 * password may sit in the user part (`user:pw@`) or in a `password=` parameter.
 */
export function splitPostgresUri(uri: string): { uri: string; password: string | null } {
  let password: string | null = null;
  let rest = uri.replace(/^(postgres(?:ql)?:\/\/[^:@/?#]*):([^@/?#]*)@/, (_m, head: string, secret: string) => {
    password = decode(secret);
    return `${head}@`;
  });
  rest = rest
    .replace(/([?&])password=([^&#]*)&?/, (_m, separator: string, secret: string) => {
      password = decode(secret);
      return separator;
    })
    .replace(/[?&]$/, '');
  return { uri: rest, password };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The calendar day a SQLite value stands for, as YYYY-MM-DD in the local zone: text that starts
 * with a date (with a time and an offset, the instant's local day; without one, the day as
 * written), or a number of seconds since 1970 (milliseconds when it is that large). Null for
 * NULL; undefined for a value that is no date.
 */
export function calendarDay(value: unknown): string | null | undefined {
  if (value === null) return null;
  if (typeof value === 'number' || typeof value === 'bigint') {
    const number = Number(value);
    if (!Number.isFinite(number)) return undefined;
    return localDay(Math.abs(number) >= 1e11 ? number : number * 1000);
  }
  if (typeof value !== 'string') return undefined;
  const match = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i.exec(
    value.trim(),
  );
  if (match === null) return undefined;
  const [, day, time, zone] = match;
  if (zone === undefined) return Number.isNaN(Date.parse(`${day}T00:00:00Z`)) ? undefined : day;
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(3).replace(':', '') || '00'}`;
  const at = Date.parse(`${day}T${time}${offset}`);
  return Number.isNaN(at) ? undefined : localDay(at);
}

/** The local calendar day of an instant, as YYYY-MM-DD. */
export function localDay(ms: number): string {
  const date = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
}

/**
 * The column of the counted subquery (`deadman_query`), quoted as SQL quotes a name. Qualified,
 * so a name that is not a column is an error ("no such column") and never SQLite's fallback to
 * a string literal.
 */
export function qualifiedColumn(name: string): string {
  return `deadman_query."${name.replaceAll('"', '""')}"`;
}

/** A value as a reason quotes it: text in quotes and cut short, anything else as written. */
export function quoteValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 39)}…` : value);
  if (value instanceof Uint8Array) return `a blob of ${value.length} bytes`;
  return String(value);
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}
