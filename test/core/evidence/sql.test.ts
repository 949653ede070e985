import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claimSchema, type SqlClaim } from '../../../lib/core/config/config.ts';
import { statementProblem } from '../../../lib/core/config/sql-claim.ts';
import { formatProblems } from '../../../lib/core/config/config-problems.ts';
import { calendarDay, judgeSql, localDay, splitPostgresUri, type SqlOutcome } from '../../../lib/core/evidence/sql.ts';

const sqlClaim = (raw: Record<string, unknown>): SqlClaim =>
  claimSchema.parse({ kind: 'sql', sqlite: '/srv/app.db', query: 'SELECT * FROM exports', ...raw }) as SqlClaim;
const answer = (rows: number, datedToday: number | null = null, notADate: string | null = null): SqlOutcome => ({
  kind: 'answer',
  rows,
  datedToday,
  today: '2026-12-07',
  notADate,
});
const judged = (expect: Record<string, unknown>, outcome: SqlOutcome, raw: Record<string, unknown> = {}) => {
  const v = judgeSql(sqlClaim({ expect, ...raw }), 'rows', outcome);
  return [v.verdict, v.reason] as const;
};

test('min_rows and max_rows: the count decides, with the numbers in the reason', () => {
  assert.deepEqual(judged({ min_rows: 1 }, answer(3)), ['alive', 'app.db: the query returned 3 rows']);
  assert.deepEqual(judged({ min_rows: 1 }, answer(0)), [
    'dead',
    'app.db: the query returned 0 rows (expected at least 1)',
  ]);
  assert.deepEqual(judged({ max_rows: 0 }, answer(0)), ['alive', 'app.db: the query returned 0 rows']);
  assert.deepEqual(judged({ max_rows: 0 }, answer(1)), [
    'dead',
    'app.db: the query returned 1 row (expected at most 0)',
  ]);
  assert.deepEqual(judged({ min_rows: 2, max_rows: 5 }, answer(6))[0], 'dead');
});

test('dated_today: a row on today is alive; none is dead, naming whose clock; a value that is no date is unknown', () => {
  assert.deepEqual(judged({ dated_today: 'created' }, answer(4, 1)), [
    'alive',
    'app.db: 4 rows, 1 with created dated today',
  ]);
  assert.deepEqual(judged({ dated_today: 'created' }, answer(4, 0)), [
    'dead',
    "app.db: no row has created dated today (2026-12-07 by deadman's clock; 4 rows in all)",
  ]);
  assert.match(
    judged({ dated_today: 'created' }, answer(4, 0), { sqlite: undefined, postgres: 'postgresql://u@db/app' })[1],
    /by the database's clock/,
  );
  assert.deepEqual(judged({ dated_today: 'created' }, answer(4, 0, '"soon"')), [
    'unknown',
    'app.db: created holds "soon", which is not a date',
  ]);
  // A row of today outweighs another row's odd value: the claim holds.
  assert.equal(judged({ dated_today: 'created' }, answer(4, 1, '"soon"'))[0], 'alive');
});

test('a failed or timed-out query is unknown, never dead or alive', () => {
  assert.deepEqual(judged({ min_rows: 1 }, { kind: 'failed', error: 'no such table: exports' }), [
    'unknown',
    'app.db: no such table: exports',
  ]);
  assert.deepEqual(judged({ min_rows: 1 }, { kind: 'timed-out', afterMs: 30_000 }), [
    'unknown',
    'app.db: the query timed out after 30s',
  ]);
});

test('a Postgres claim is named by its URI without the password', () => {
  const [, reason] = judged({ min_rows: 1 }, answer(0), {
    sqlite: undefined,
    postgres: 'postgresql://report:hunter2-pw@db.internal:5432/app',
  });
  assert.equal(reason, 'postgresql://report@db.internal:5432/app: the query returned 0 rows (expected at least 1)');
});

test('splitPostgresUri takes the password out of the user part or a password= parameter', () => {
  assert.deepEqual(splitPostgresUri('postgresql://u:p%40ss@h/db'), { uri: 'postgresql://u@h/db', password: 'p@ss' });
  assert.deepEqual(splitPostgresUri('postgres://u@/db?host=%2Ftmp&password=pw&sslmode=disable'), {
    uri: 'postgres://u@/db?host=%2Ftmp&sslmode=disable',
    password: 'pw',
  });
  assert.deepEqual(splitPostgresUri('postgresql://u@h/db?password=pw'), { uri: 'postgresql://u@h/db', password: 'pw' });
  assert.deepEqual(splitPostgresUri('postgresql://h/db'), { uri: 'postgresql://h/db', password: null });
});

test('calendarDay reads dates, timestamps with and without offsets, and Unix times; anything else is no date', () => {
  const noon = new Date(2026, 11, 7, 12).getTime();
  assert.equal(calendarDay('2026-12-07'), '2026-12-07');
  assert.equal(calendarDay('2026-12-07 23:59:59'), '2026-12-07');
  assert.equal(calendarDay('2026-12-07T08:00'), '2026-12-07');
  assert.equal(calendarDay(new Date(noon).toISOString()), '2026-12-07');
  assert.equal(calendarDay(noon / 1000), '2026-12-07');
  assert.equal(calendarDay(noon), '2026-12-07');
  assert.equal(calendarDay(BigInt(noon / 1000)), '2026-12-07');
  assert.equal(localDay(noon), '2026-12-07');
  assert.equal(calendarDay(null), null);
  for (const bad of ['soon', '07/12/2026', '2026-13-45', new Uint8Array(3)])
    assert.equal(calendarDay(bad), undefined, String(bad));
});

test('the schema: exactly one database, one statement, an expect that can hold', () => {
  const problems = (raw: Record<string, unknown>) => {
    const parsed = claimSchema.safeParse({ kind: 'sql', query: 'SELECT 1', expect: { min_rows: 1 }, ...raw });
    return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
  };
  assert.deepEqual(problems({ sqlite: '/srv/app.db' }), []);
  assert.match(problems({})[0]!, /exactly one of "sqlite".*or "postgres"/);
  assert.match(problems({ sqlite: '/a.db', postgres: 'postgresql://h/db' })[0]!, /exactly one/);
  assert.match(problems({ postgres: 'host=db user=u' })[0]!, /must be a URI/);
  assert.match(problems({ sqlite: 'app.db' })[0]!, /absolute/);
  assert.match(problems({ sqlite: '/a.db', expect: {} })[0]!, /at least one of min_rows, max_rows or dated_today/);
  assert.match(problems({ sqlite: '/a.db', expect: { min_rows: 3, max_rows: 1 } })[0]!, /min_rows is above max_rows/);
  assert.match(problems({ sqlite: '/a.db', expect: { rows: 1 } }).join(), /rows/);
  assert.match(problems({ sqlite: '/a.db', query: 'SELECT 1; DELETE FROM t' })[0]!, /one statement/);
  assert.equal(statementProblem('SELECT \';\' AS x, "a;b" FROM t -- done; really\n;  '), null);
  assert.equal(statementProblem(' ; '), 'is empty');
});

test('a problem with the postgres key never shows its text: it may hold a password', () => {
  const lines = (raw: Record<string, unknown>) => {
    const parsed = claimSchema.safeParse({ kind: 'sql', query: 'SELECT 1', expect: { min_rows: 1 }, ...raw });
    assert.ok(!parsed.success);
    return formatProblems(
      parsed.error.issues as never,
      { kind: 'sql', query: 'SELECT 1', expect: { min_rows: 1 }, ...raw },
      { file: 'deadman.toml', flagKeys: new Set() },
      () => [],
    ).join('\n');
  };
  const notAUri = lines({ postgres: 'host=db password=hunter2-pw' });
  assert.match(notAUri, /postgres \(27 characters, not shown: it may be a secret\): must be a URI/);
  const both = lines({ postgres: 'postgresql://u:hunter2-pw@db/app', sqlite: '/srv/app.db' });
  assert.match(both, /needs exactly one/);
  for (const text of [notAUri, both]) assert.ok(!text.includes('hunter2-pw'), text);
});
