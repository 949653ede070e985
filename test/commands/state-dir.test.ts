import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Store } from '../../lib/io/store/store.ts';
import { sinkOver } from '../../lib/io/store/recording-store.ts';
import { createLogger } from '../../lib/io/log/log.ts';
import { systemClock } from '../../lib/io/time/clock.ts';
import { RunRecords } from '../../lib/supervise/records/records.ts';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';

/**
 * `--state-dir` means the same on every command that finds state: check, config, report and
 * incidents read (or record into) the directory given, not $STATE_DIRECTORY's.
 */

function setup(t: { after(fn: () => void): void }) {
  const dir = tempDir(t);
  const given = join(dir, 'given');
  const ambient = join(dir, 'ambient');
  mkdirSync(given, { mode: 0o700 });
  mkdirSync(ambient, { mode: 0o700 });
  const env = { ...process.env, STATE_DIRECTORY: ambient, DEADMAN_CONFIG: '', NOTIFY_SOCKET: '' };
  const deadman = (args: string[]) => runDeadman(args, { env, cwd: dir });
  return { dir, given, ambient, deadman };
}

/** One escalated incident recorded in `stateDir`'s database, for a run called `name`. */
function recordIncident(stateDir: string, name: string): void {
  const store = new Store(join(stateDir, 'deadman.db'));
  try {
    new RunRecords(sinkOver(store, createLogger(), systemClock), () => Date.now()).refusedRun(
      {
        name,
        argv: ['true'],
        cwd: '/',
        unit: null,
        invocationId: null,
        pid: process.pid,
        pidStartTime: null,
        token: `token-${name}`,
        adapter: 'none',
        reviveOf: null,
      },
      { exitCode: 69, outcome: 'revive-exhausted', reason: `revive budget spent for ${name}`, halt: true },
    );
  } finally {
    store.close();
  }
}

test('incidents and report read the database of --state-dir', async (t) => {
  const s = setup(t);
  recordIncident(s.given, 'in-given');
  recordIncident(s.ambient, 'in-ambient');
  const listed = await s.deadman(['incidents', '--json', '--state-dir', s.given]);
  assert.equal(listed.code, 0, listed.stderr);
  assert.deepEqual(
    (JSON.parse(listed.stdout) as Array<{ run: { name: string } }>).map((row) => row.run.name),
    ['in-given'],
  );
  const report = await s.deadman(['report', 'latest', '--json', '--state-dir', s.given]);
  assert.equal(report.code, 0, report.stderr);
  assert.equal((JSON.parse(report.stdout) as { run: { name: string } }).run.name, 'in-given');
  const ambient = await s.deadman(['report', 'latest', '--json']);
  assert.equal(
    (JSON.parse(ambient.stdout) as { run: { name: string } }).run.name,
    'in-ambient',
    'without the option: $STATE_DIRECTORY',
  );
});

test('config check shows the paths under --state-dir', async (t) => {
  const s = setup(t);
  const result = await s.deadman(['config', 'check', '--state-dir', s.given]);
  assert.equal(result.code, 0, result.stdout);
  assert.match(result.stdout, new RegExp(`^state dir: +${s.given}$`, 'm'));
  assert.match(result.stdout, new RegExp(`^database: +${join(s.given, 'deadman.db')}$`, 'm'));
  assert.match(result.stdout, new RegExp(`^marker dir: +${join(s.given, 'markers')}$`, 'm'));
});

test('check records its verdicts into the database of --state-dir', async (t) => {
  const s = setup(t);
  const out = join(s.dir, 'out');
  mkdirSync(out);
  writeFileSync(join(out, 'export.csv'), 'a,b\n');
  const config = join(s.dir, 'jobs.toml');
  writeFileSync(
    config,
    `[jobs.nightly]\nrerun = ["true"]\n[[jobs.nightly.evidence]]\nkind = "file"\nroot = "${out}"\npath = "${out}/export.csv"\nmax_age = "1h"\n`,
  );
  const result = await s.deadman(['check', '--config', config, '--state-dir', s.given]);
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.equal(query(join(s.given, 'deadman.db'), 'SELECT id FROM evidence_results').length, 1);
  assert.equal(existsSync(join(s.ambient, 'deadman.db')), false, 'nothing recorded under $STATE_DIRECTORY');
});
