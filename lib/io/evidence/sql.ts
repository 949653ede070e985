import { stat } from 'node:fs/promises';
import { z } from 'zod';
import type { SqlClaim } from '../../core/config/config.ts';
import { sqlStatement } from '../../core/config/sql-claim.ts';
import type { CommandOutcome } from '../../core/evidence/probe-verdicts.ts';
import { qualifiedColumn, splitPostgresUri, type SqlOutcome } from '../../core/evidence/sql.ts';
import { parseJsonOrUndefined } from '../../core/json/parse-json.ts';
import { REDACTED } from '../../core/redact/redact.ts';
import { packageFile } from '../files/package-files.ts';
import { runBounded } from '../process/bounded-run.ts';
import type { SqliteRequest } from './sqlite-query.ts';

/**
 * Asks a database for a `kind = "sql"` claim's counts, read-only and bounded in time: SQLite in
 * a child Node process (sqlite-query-child.ts), Postgres through `psql` in a read-only transaction
 * with a statement timeout. Every failure is an outcome with one line, never a throw.
 */

/** How long past the claim's timeout the process may run: the database's own timeout speaks first. */
const PROCESS_GRACE_MS = 2_000;

/** Database processes (a Node for SQLite, a psql) at once: `check`'s pool runs 32 claims in parallel, and 32 Nodes are a lot of memory. */
const MAX_DATABASE_PROCESSES = 4;
let running = 0;
const waiting: Array<() => void> = [];

export async function querySql(claim: SqlClaim, now: () => number): Promise<SqlOutcome> {
  if (running >= MAX_DATABASE_PROCESSES) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await (claim.sqlite !== undefined
      ? querySqliteFile(claim, claim.sqlite, now())
      : queryPostgres(claim, claim.postgres!));
  } finally {
    running--;
    waiting.shift()?.();
  }
}

const sqliteAnswerSchema = z.union([
  z.object({
    rows: z.number(),
    datedToday: z.number().nullable(),
    today: z.string().nullable(),
    notADate: z.string().nullable(),
  }),
  z.object({ error: z.string() }),
]);

async function querySqliteFile(claim: SqlClaim, path: string, now: number): Promise<SqlOutcome> {
  const missing = await stat(path).then(
    (info) => (info.isFile() ? null : 'is not a file'),
    (error: NodeJS.ErrnoException) =>
      error.code === 'ENOENT' ? 'does not exist' : `cannot be read (${error.code ?? error.message})`,
  );
  if (missing !== null) return { kind: 'failed', error: `the database file ${missing}` };
  const request: SqliteRequest = {
    path,
    statement: sqlStatement(claim.query),
    datedToday: claim.expect.dated_today ?? null,
    now,
    busyTimeoutMs: claim.timeout,
  };
  const argv = [
    process.execPath,
    '--disable-warning=ExperimentalWarning',
    packageFile('dist/lib/io/evidence/sqlite-query-child.js'),
  ];
  const outcome = await runBounded({
    argv,
    input: JSON.stringify(request),
    timeoutMs: claim.timeout + PROCESS_GRACE_MS,
  });
  if (outcome.kind !== 'exited' || outcome.code !== 0) return failure(outcome, claim.timeout, 'the SQLite query');
  const answer = sqliteAnswerSchema.safeParse(parseJsonOrUndefined(outcome.stdout));
  if (!answer.success)
    return { kind: 'failed', error: `the SQLite query printed no answer: ${firstLine(outcome.stderr) || 'no output'}` };
  if ('error' in answer.data) return { kind: 'failed', error: withoutAlias(answer.data.error) };
  return { kind: 'answer', ...answer.data };
}

async function queryPostgres(claim: SqlClaim, uri: string): Promise<SqlOutcome> {
  const { uri: connection, password } = splitPostgresUri(uri);
  const column = claim.expect.dated_today;
  const counts =
    column === undefined
      ? 'count(*)'
      : `count(*), count(*) FILTER (WHERE (${qualifiedColumn(column)})::date = current_date), to_char(current_date, 'YYYY-MM-DD')`;
  const sql = `SELECT ${counts} FROM (\n${sqlStatement(claim.query)}\n) AS deadman_query`;
  const options = `-c default_transaction_read_only=on -c statement_timeout=${claim.timeout}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PGOPTIONS: [process.env.PGOPTIONS, options].filter(Boolean).join(' '),
    PGCONNECT_TIMEOUT: String(Math.max(2, Math.ceil(claim.timeout / 1000))),
    PGAPPNAME: 'deadman-check',
    ...(password !== null ? { PGPASSWORD: password } : {}),
  };
  // -X: no ~/.psqlrc; -A -t: bare values; -w: never ask for a password on the terminal.
  const argv = ['psql', '-X', '-A', '-t', '-q', '-w', '-v', 'ON_ERROR_STOP=1', '-d', connection, '-c', sql];
  const outcome = await runBounded({ argv, env, timeoutMs: claim.timeout + PROCESS_GRACE_MS });
  const hide = (text: string) => (password ? text.split(password).join(REDACTED) : text);
  if (outcome.kind === 'not-started')
    return { kind: 'failed', error: `cannot run psql: ${outcome.error} (install the PostgreSQL client)` };
  if (/canceling statement due to statement timeout/.test(outcome.kind === 'exited' ? outcome.stderr : ''))
    return { kind: 'timed-out', afterMs: claim.timeout };
  if (outcome.kind !== 'exited' || outcome.code !== 0) {
    const failed = failure(outcome, claim.timeout, 'psql');
    return failed.kind === 'failed' ? { kind: 'failed', error: hide(failed.error) } : failed;
  }
  const [rows, dated, today] = outcome.stdout.trim().split('|');
  if (rows === undefined || !/^\d+$/.test(rows))
    return { kind: 'failed', error: `psql printed ${JSON.stringify(hide(firstLine(outcome.stdout)))}, not a count` };
  return {
    kind: 'answer',
    rows: Number(rows),
    datedToday: column === undefined ? null : Number(dated),
    today: today ?? null,
    notADate: null,
  };
}

/** A process that did not answer: timed out, killed, or exited non-zero with its first error line. */
function failure(outcome: CommandOutcome, timeoutMs: number, what: string): SqlOutcome {
  switch (outcome.kind) {
    case 'timed-out':
      return { kind: 'timed-out', afterMs: timeoutMs };
    case 'not-started':
      return { kind: 'failed', error: `cannot start ${what}: ${outcome.error}` };
    case 'signaled':
      return { kind: 'failed', error: `${what} was killed by ${outcome.signal}` };
    case 'exited':
      return {
        kind: 'failed',
        error:
          withoutAlias(firstLine(outcome.stderr).replace(/^psql: error: /, '')) || `${what} exited ${outcome.code}`,
      };
  }
}

/** An error as the person wrote the query: `no such column: created`, not `deadman_query.created`. */
function withoutAlias(error: string): string {
  return error.replaceAll('deadman_query.', '');
}

function firstLine(text: string): string {
  const line =
    text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l !== '') ?? '';
  const words = line.replace(/\s+/g, ' ');
  return words.length > 300 ? `${words.slice(0, 299)}…` : words;
}
