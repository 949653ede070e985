import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Store } from '../../lib/io/store/store.ts';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';

test('retention applies to whichever command records: deadman check alone keeps the database bounded', async (t) => {
  const dir = tempDir(t);
  const database = join(dir, 'deadman.db');
  const store = new Store(database);
  store.insert('evidence_results', { job: 'nightly', claim: 'file-1', at: 1000, verdict: 'dead', reason: 'ancient' });
  store.close();
  writeFileSync(join(dir, 'out.csv'), 'a\n');
  const config = join(dir, 'deadman.toml');
  writeFileSync(
    config,
    `[retention]\nmax_age = "30d"\n[jobs.nightly]\nrerun = ["/bin/true"]\n[[jobs.nightly.evidence]]\nkind = "file"\nroot = "${dir}"\npath = "${dir}/out.csv"\n`,
  );
  const result = await runDeadman(['check', '--config', config, '--database', database]);
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.deepEqual(
    query<{ reason: string }>(database, 'SELECT reason FROM evidence_results')
      .map((r) => r.reason)
      .filter((r) => r === 'ancient'),
    [],
  );
  assert.equal(query(database, 'SELECT id FROM evidence_results').length, 1, 'the fresh verdict is kept');
});
