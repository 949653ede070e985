import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { fillFinishedRuns } from '../helpers/crowded-database.ts';
import { RUNS_PER_POLL } from '../../lib/commands/run/run-retention.ts';

/**
 * Issue 38.1: retention never stands between `deadman run` and its command. The command itself
 * counts the runs in the database as it starts, then every 50 ms until retention is done: the
 * first count is every run there was (nothing pruned before it started), and between two counts
 * at most RUNS_PER_POLL runs went per poll that could have passed (the timestamps say how many).
 */

const env = { ...process.env, DEADMAN_CONFIG: '', NOTIFY_SOCKET: '', WATCHDOG_USEC: '', JOURNAL_STREAM: '' };
const POLL_MS = 2_000;
const MAX_RUNS = 20;
const FILLED = 250;

/** Prints `count wall-ms` now and every 50 ms until the runs are down to `max` (or a minute passed: retention stopped). */
const counter = (database: string, max: number) => `
  import { DatabaseSync } from 'node:sqlite';
  const count = () => { const db = new DatabaseSync(${JSON.stringify(database)}, { readOnly: true }); try { return db.prepare('SELECT count(*) AS n FROM runs').get().n; } finally { db.close(); } };
  const until = Date.now() + 60_000;
  for (let n = count(); ; n = count()) {
    console.log(n, Date.now());
    if (n <= ${max} || Date.now() > until) break;
    await new Promise((r) => setTimeout(r, 50));
  }`;

test(
  'a run starts its command before pruning a database far past max_runs, then prunes it a bounded batch a poll',
  { timeout: 120_000 },
  async (t) => {
    const dir = tempDir(t);
    const database = join(dir, 'deadman.db');
    fillFinishedRuns(database, FILLED, { endedAt: Date.now() - 60_000 });
    const config = join(dir, 'deadman.toml');
    writeFileSync(config, `poll = "${POLL_MS}ms"\n[retention]\nmax_runs = ${MAX_RUNS}\n`);
    const run = await runDeadman(
      [
        'run',
        '--config',
        config,
        '--database',
        database,
        '--',
        process.execPath,
        '--input-type=module',
        '-e',
        counter(database, MAX_RUNS),
      ],
      { env, cwd: dir },
    );
    assert.equal(run.code, 0, run.stderr);
    const counts = run.stdout
      .trim()
      .split('\n')
      .map((line) => line.split(' ').map(Number) as [number, number]);
    assert.equal(counts[0]![0], FILLED + 1, `the command's first look found runs pruned already: ${run.stdout}`);
    assert.equal(counts.at(-1)![0], MAX_RUNS, 'retention went on while the command ran, down to max_runs');
    for (let i = 1; i < counts.length; i++) {
      const [[before, then], [after, now]] = [counts[i - 1]!, counts[i]!];
      const polls = Math.ceil((now - then) / POLL_MS) + 1;
      assert.ok(
        before - after <= RUNS_PER_POLL * polls,
        `${before - after} runs went in ${now - then} ms (at most ${RUNS_PER_POLL} a poll of ${POLL_MS} ms)`,
      );
    }
  },
);
