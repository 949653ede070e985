import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { claimSchema, type Claim } from '../../../lib/core/config/config.ts';
import { evaluateClaim, evaluateClaims } from '../../../lib/io/evidence/evidence.ts';
import { tempDir } from '../../helpers/cli.ts';

/** `kind = "sql"` against real SQLite files, through the same evaluation `deadman check` runs. */

const DAY = 86_400_000;

function database(t: { after(fn: () => void): void }): string {
  const path = join(tempDir(t), 'app.db');
  const db = new DatabaseSync(path);
  const at = (ms: number) => new Date(ms);
  const local = (d: Date) =>
    `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  db.exec(`CREATE TABLE exports (id INTEGER, day TEXT, at_unix INTEGER, note TEXT);
           CREATE TABLE queue (id INTEGER);`);
  const insert = db.prepare('INSERT INTO exports VALUES (?, ?, ?, ?)');
  insert.run(1, local(at(Date.now() - 2 * DAY)), Math.floor((Date.now() - 2 * DAY) / 1000), 'soon');
  insert.run(2, local(at(Date.now())), Math.floor(Date.now() / 1000), 'later');
  db.close();
  return path;
}

const verdictOf = async (raw: Record<string, unknown>) => {
  const v = await evaluateClaim(claimSchema.parse({ kind: 'sql', ...raw }) as Claim, 0, Date.now);
  return [v.verdict, v.reason] as const;
};

test('rows counted: at least N, at most N (a drained queue)', async (t) => {
  const sqlite = database(t);
  assert.deepEqual(await verdictOf({ sqlite, query: 'SELECT * FROM exports;', expect: { min_rows: 2 } }), [
    'alive',
    'app.db: the query returned 2 rows',
  ]);
  assert.deepEqual(await verdictOf({ sqlite, query: 'SELECT * FROM exports WHERE id > 5', expect: { min_rows: 1 } }), [
    'dead',
    'app.db: the query returned 0 rows (expected at least 1)',
  ]);
  assert.deepEqual(await verdictOf({ sqlite, query: 'SELECT * FROM queue', expect: { max_rows: 0 } }), [
    'alive',
    'app.db: the query returned 0 rows',
  ]);
  assert.equal((await verdictOf({ sqlite, query: 'SELECT * FROM exports', expect: { max_rows: 0 } }))[0], 'dead');
});

test("a row dated today, by deadman's clock: text dates and Unix times", async (t) => {
  const sqlite = database(t);
  assert.deepEqual(await verdictOf({ sqlite, query: 'SELECT day FROM exports', expect: { dated_today: 'day' } }), [
    'alive',
    'app.db: 2 rows, 1 with day dated today',
  ]);
  assert.equal(
    (await verdictOf({ sqlite, query: 'SELECT * FROM exports', expect: { dated_today: 'at_unix' } }))[0],
    'alive',
  );
  const [verdict, reason] = await verdictOf({
    sqlite,
    query: 'SELECT * FROM exports WHERE id = 1',
    expect: { dated_today: 'day' },
  });
  assert.equal(verdict, 'dead');
  assert.match(reason, /^app\.db: no row has day dated today \(\d{4}-\d\d-\d\d by deadman's clock; 1 row in all\)$/);
});

test('every bad input is unknown with one line: missing file, not a database, bad query, no such column, no date', async (t) => {
  const sqlite = database(t);
  const notADatabase = join(tempDir(t), 'notes.db');
  writeFileSync(notADatabase, 'just text, not SQLite\n'.repeat(10));
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [
      { sqlite: join(tempDir(t), 'gone.db'), query: 'SELECT 1', expect: { min_rows: 1 } },
      /^gone\.db: the database file does not exist$/,
    ],
    [{ sqlite: notADatabase, query: 'SELECT 1', expect: { min_rows: 1 } }, /^notes\.db: file is not a database$/],
    [{ sqlite, query: 'SELECT * FROM exprots', expect: { min_rows: 1 } }, /^app\.db: no such table: exprots$/],
    [{ sqlite, query: 'SELEC 1', expect: { min_rows: 1 } }, /^app\.db: near "1": syntax error$/],
    [
      { sqlite, query: 'SELECT * FROM exports', expect: { dated_today: 'created' } },
      /^app\.db: no such column: created$/,
    ],
    [
      { sqlite, query: 'SELECT * FROM exports', expect: { dated_today: 'note' } },
      /^app\.db: note holds "soon", which is not a date$/,
    ],
  ];
  for (const [raw, reason] of cases) {
    const [verdict, said] = await verdictOf(raw);
    assert.equal(verdict, 'unknown', said);
    assert.match(said, reason);
  }
});

test('a query that outlives its timeout is stopped and unknown', async (t) => {
  const sqlite = database(t);
  const started = performance.now();
  const endless = 'WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT x FROM n';
  assert.deepEqual(await verdictOf({ sqlite, query: endless, expect: { min_rows: 1 }, timeout: '1s' }), [
    'unknown',
    'app.db: the query timed out after 1s',
  ]);
  // The query alone would never end: only the stopped process ends it (1 s + the 2 s grace, plus a busy host's slack).
  assert.ok(performance.now() - started < 60_000);
});

test('the database is opened read-only: the file is not changed and no journal is left', async (t) => {
  const sqlite = database(t);
  const before = { bytes: readFileSync(sqlite), mtime: statSync(sqlite).mtimeMs };
  assert.equal((await verdictOf({ sqlite, query: 'SELECT * FROM exports', expect: { min_rows: 1 } }))[0], 'alive');
  assert.deepEqual(readFileSync(sqlite), before.bytes);
  assert.equal(statSync(sqlite).mtimeMs, before.mtime);
  assert.throws(() => statSync(`${sqlite}-journal`));
});

test('many SQLite claims at once all come back, in order, through the bounded pool of database processes', async (t) => {
  const sqlite = database(t);
  const claims = Array.from(
    { length: 10 },
    (_, i) =>
      claimSchema.parse({
        kind: 'sql',
        sqlite,
        query: `SELECT * FROM exports WHERE id <= ${i % 3}`,
        expect: { min_rows: 1 },
      }) as Claim,
  );
  const verdicts = await evaluateClaims(claims, Date.now);
  assert.deepEqual(
    verdicts.map((v) => v.verdict),
    claims.map((_, i) => (i % 3 === 0 ? 'dead' : 'alive')),
  );
});
