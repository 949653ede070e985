import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { startUserManager } from '../helpers/systemd.ts';
import { deadmanUnit } from '../helpers/units.ts';

test('green but dead: exit 0 with an empty on_exit file is exit 65 and EVIDENCE_FAILED; filled, exit 0', async (t) => {
  const dir = tempDir(t);
  const out = join(dir, 'out');
  const config = join(dir, 'deadman.toml');
  writeFileSync(
    config,
    `[[evidence]]\nname = "export"\nkind = "file"\nroot = "${out}"\nglob = "${out}/*.csv"\nnon_empty = true\n`,
  );
  const env = { ...process.env, STATE_DIRECTORY: join(dir, 'state'), NOTIFY_SOCKET: '' };
  const database = join(dir, 'state', 'deadman.db');

  const empty = await runDeadman(
    ['run', '--config', config, '--', 'sh', '-c', `mkdir -p ${out} && : > ${out}/export-2026-09-10.csv`],
    { env },
  );
  assert.equal(empty.code, 65, empty.stderr);
  assert.match(empty.stderr, /EVIDENCE_FAILED \(green but dead\): export dead: export-2026-09-10\.csv is 0 bytes/);
  const [incident] = query<{ kind: string; state: string }>(database, 'SELECT kind, state FROM incidents');
  assert.deepEqual({ ...incident }, { kind: 'EVIDENCE_FAILED', state: 'ESCALATED' });
  assert.equal(query<{ outcome: string }>(database, 'SELECT outcome FROM runs')[0]?.outcome, 'green-but-dead');

  const filled = await runDeadman(
    ['run', '--config', config, '--', 'sh', '-c', `echo id,total > ${out}/export-2026-09-11.csv`],
    { env },
  );
  assert.equal(filled.code, 0, filled.stderr);
  const verdicts = query<{ verdict: string }>(database, 'SELECT verdict FROM evidence_results ORDER BY id');
  assert.deepEqual(
    verdicts.map((v) => v.verdict),
    ['dead', 'alive'],
  );
});

test('a failing child is not judged by evidence: its own exit code stands', async (t) => {
  const dir = tempDir(t);
  const config = join(dir, 'deadman.toml');
  writeFileSync(config, `[[evidence]]\nkind = "file"\nroot = "${dir}"\npath = "${dir}/missing"\n`);
  const result = await runDeadman(['run', '--config', config, '--', 'sh', '-c', 'exit 4'], {
    env: { ...process.env, STATE_DIRECTORY: dir, NOTIFY_SOCKET: '' },
  });
  assert.equal(result.code, 4);
});

test('under systemd, an always claim that goes stale withholds the watchdog and the unit restarts', async (t) => {
  const manager = await startUserManager(t);
  if (!manager) return;
  const dir = tempDir(t);
  const file = join(dir, 'heartbeat.txt');
  writeFileSync(file, 'fresh\n');
  const config = join(dir, 'deadman.toml');
  writeFileSync(
    config,
    `[[evidence]]\nname = "heartbeat"\nkind = "file"\nroot = "${dir}"\npath = "${file}"\nmax_age = "2s"\nwhen = "always"\ninterval = "500ms"\ngrace = "1s"\n`,
  );
  await manager.writeUnit(
    'stale.service',
    deadmanUnit({
      runArgs: ['--config', config, '--poll', '200ms'],
      command: ['sh', '-c', 'while :; do echo working; sleep 0.5; done'],
      env: { STATE_DIRECTORY: dir },
    }),
  );
  const started = performance.now();
  assert.equal((await manager.systemctl('start', 'stale.service')).code, 0);
  await manager.waitFor('stale.service', (p) => Number(p.NRestarts) >= 1, 2000 + 1000 + 2000 + 3000);
  assert.ok(performance.now() - started > 2000, 'not before the file was max_age old');
  const [incident] = query<{ message: string }>(
    join(dir, 'deadman.db'),
    "SELECT message FROM incidents WHERE kind = 'EVIDENCE_STALE'",
  );
  assert.match(incident?.message ?? '', /heartbeat dead: heartbeat\.txt is \d+ seconds? stale/);
});
