import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { claimSchema, type Claim } from '../../../lib/core/config/config.ts';
import { evaluateClaim } from '../../../lib/io/evidence/evidence.ts';
import { runDeadman, tempDir } from '../../helpers/cli.ts';
import { skipUnlessPostgres, startPostgres, type Postgres } from '../../helpers/postgres.ts';

/**
 * `kind = "sql"` against a real Postgres server this file starts (test/helpers/postgres.ts):
 * psql in a read-only transaction, "today" by the database's clock, and a password that is
 * never printed or stored.
 */

const skip = skipUnlessPostgres();
let pg: Postgres;
/** One server for the file: stopped after its last test (an `after` called inside `before` would run at once). */
const stops: Array<() => void | Promise<void>> = [];
after(async () => {
  for (const stop of stops) await stop();
});

before(async () => {
  if (skip) return;
  pg = await startPostgres({ after: (stop) => stops.push(stop) });
  pg.sql(`CREATE TABLE exports (id int, created timestamptz, size int);
          INSERT INTO exports VALUES (1, now() - interval '3 days', 10), (2, now(), 20);
          CREATE TABLE queue (id int);
          CREATE SEQUENCE tickets;`);
});

const verdictOf = async (raw: Record<string, unknown>) => {
  const v = await evaluateClaim(claimSchema.parse({ kind: 'sql', postgres: pg.uri, ...raw }) as Claim, 0, Date.now);
  assert.ok(!v.reason.includes(pg.password), `the password is in "${v.reason}"`);
  return [v.verdict, v.reason.replace(/^postgresql:\/\/deadman@\/postgres\?host=[^:]+: /, '')] as const;
};

test("rows counted and a row dated today, by the database's clock", { skip }, async () => {
  assert.deepEqual(await verdictOf({ query: 'SELECT * FROM exports;', expect: { min_rows: 2 } }), [
    'alive',
    'the query returned 2 rows',
  ]);
  assert.deepEqual(await verdictOf({ query: 'SELECT * FROM exports WHERE size > 100', expect: { min_rows: 1 } }), [
    'dead',
    'the query returned 0 rows (expected at least 1)',
  ]);
  assert.deepEqual(await verdictOf({ query: 'SELECT * FROM queue', expect: { max_rows: 0 } }), [
    'alive',
    'the query returned 0 rows',
  ]);
  assert.deepEqual(await verdictOf({ query: 'SELECT created FROM exports', expect: { dated_today: 'created' } }), [
    'alive',
    '2 rows, 1 with created dated today',
  ]);
  const today = pg.sql("SELECT to_char(current_date, 'YYYY-MM-DD')").trim();
  assert.deepEqual(
    await verdictOf({ query: 'SELECT * FROM exports WHERE id = 1', expect: { dated_today: 'created' } }),
    ['dead', `no row has created dated today (${today} by the database's clock; 1 row in all)`],
  );
});

test(
  "bad query, wrong type, no such column, statement timeout: unknown with the server's one line",
  { skip },
  async () => {
    assert.deepEqual(await verdictOf({ query: 'SELECT * FROM exprots', expect: { min_rows: 1 } }), [
      'unknown',
      'ERROR: relation "exprots" does not exist',
    ]);
    assert.deepEqual(await verdictOf({ query: 'SELECT * FROM exports', expect: { dated_today: 'size' } }), [
      'unknown',
      'ERROR: cannot cast type integer to date',
    ]);
    assert.deepEqual(await verdictOf({ query: 'SELECT * FROM exports', expect: { dated_today: 'made' } }), [
      'unknown',
      'ERROR: column made does not exist',
    ]);
    assert.deepEqual(await verdictOf({ query: 'SELECT pg_sleep(30)', expect: { min_rows: 1 }, timeout: '1s' }), [
      'unknown',
      'the query timed out after 1s',
    ]);
  },
);

test('the transaction is read-only: a query that writes fails and changes nothing', { skip }, async () => {
  assert.deepEqual(await verdictOf({ query: "SELECT nextval('tickets')", expect: { min_rows: 1 } }), [
    'unknown',
    'ERROR: cannot execute nextval() in a read-only transaction',
  ]);
  assert.equal(pg.sql("SELECT nextval('tickets')").trim(), '1');
});

test('a wrong password and psql absent are unknown, and neither shows the password', { skip }, async () => {
  const wrong = pg.uri.replace(pg.password, 'not-the-pw-9');
  const [verdict, reason] = await verdictOf({ postgres: wrong, query: 'SELECT 1', expect: { min_rows: 1 } });
  assert.equal(verdict, 'unknown');
  assert.match(reason, /password authentication failed for user "deadman"/);
  assert.ok(!reason.includes('not-the-pw-9'));
  const path = process.env.PATH;
  process.env.PATH = tempDir();
  try {
    assert.deepEqual(await verdictOf({ query: 'SELECT 1', expect: { min_rows: 1 } }), [
      'unknown',
      'cannot run psql: command not found (install the PostgreSQL client)',
    ]);
  } finally {
    process.env.PATH = path;
  }
});

test('deadman check prints, records and reports the claim without the password', { skip }, async (t) => {
  const dir = tempDir(t);
  const config = join(dir, 'deadman.toml');
  const state = join(dir, 'state');
  writeFileSync(
    config,
    [
      '[jobs.report]',
      'rerun = ["/bin/true"]',
      '[[jobs.report.evidence]]',
      'kind = "sql"',
      `postgres = "${pg.uri}"`,
      'query = "SELECT * FROM exports WHERE size > 100"',
      'expect = { min_rows = 1 }',
      '[jobs.login]',
      'rerun = ["/bin/true"]',
      '[[jobs.login.evidence]]',
      'kind = "sql"',
      `postgres = "${pg.uri.replace(pg.password, 'wrong-pw-42')}"`,
      'query = "SELECT 1"',
      'expect = { min_rows = 1 }',
    ].join('\n'),
  );
  const args = ['check', '--config', config, '--database', join(state, 'deadman.db')];
  const text = await runDeadman(args);
  const json = await runDeadman([...args, '--json']);
  assert.equal(text.code, 1, text.stderr);
  assert.match(
    text.stdout,
    /DEAD {3}report\n {7}postgresql:\/\/deadman@\/postgres\?host=.*: the query returned 0 rows \(expected at least 1\)/,
  );
  assert.match(text.stdout, /UNKNOWN login\n.*password authentication failed/);
  assert.match(text.stdout, /2 checked \| 1 green and dead \| 1 unknown \| 0 alive/);
  for (const secret of [pg.password, 'wrong-pw-42']) {
    for (const output of [text.stdout, text.stderr, json.stdout, json.stderr])
      assert.ok(!output.includes(secret), `printed: ${output}`);
    for (const file of readdirSync(state))
      assert.ok(!readFileSync(join(state, file)).includes(secret), `stored in ${file}`);
  }
});
