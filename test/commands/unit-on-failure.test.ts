import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, runProgram, tempDir } from '../helpers/cli.ts';
import { findExecutable } from '../../lib/io/units/executable.ts';

/** `deadman unit --on-failure` and `install --on-failure`: OnFailure= and, given no unit, the companion that reports and alerts. */
test('unit --on-failure prints the unit with OnFailure= and its companion; with a name, only OnFailure=', async (t) => {
  const dir = tempDir(t);
  const env = { ...process.env, DEADMAN_CONFIG: '' };
  const both = await runDeadman(
    [
      'unit',
      '--user',
      '--name',
      'job',
      '--database',
      join(dir, 'db', 'deadman.db'),
      '--on-failure',
      '--',
      'sh',
      '-c',
      'exit 64',
    ],
    { env, cwd: dir },
  );
  assert.equal(both.code, 0, both.stderr);
  const [unit, companion] = both.stdout.split('\n# ---- deadman-job-notify.service ----\n');
  assert.match(unit!, /^OnFailure=deadman-job-notify\.service$/m);
  assert.match(companion!, /^ExecStart=\S+ \S+deadman\.js report latest --name job --database \S+\/db\/deadman\.db$/m);
  assert.match(companion!, /^ExecStart=-\S+ \S+deadman\.js notify fail --name job --database /m);

  const named = await runDeadman(['unit', '--user', '--name', 'job', '--on-failure', 'page-me.service', '--', 'true'], {
    env,
    cwd: dir,
  });
  assert.equal(named.code, 0, named.stderr);
  assert.match(named.stdout, /^OnFailure=page-me\.service$/m);
  assert.doesNotMatch(named.stdout, /-notify\.service ----/);
  const none = await runDeadman(['unit', '--user', '--name', 'job', '--', 'true'], { env, cwd: dir });
  assert.doesNotMatch(none.stdout, /OnFailure=/);

  for (const args of [
    ['--on-failure', 'not a unit'],
    ['--launchd', '--on-failure'],
  ]) {
    const refused = await runDeadman(['unit', '--name', 'job', ...args, '--', 'true'], { env, cwd: dir });
    assert.equal(refused.code, 64, refused.stdout + refused.stderr);
    assert.equal(refused.stderr.trim().split('\n').length, 1, refused.stderr);
  }
});

test('install --on-failure writes both files, and systemd-analyze verify accepts them', async (t) => {
  const dir = tempDir(t);
  const unitDir = join(dir, 'units');
  const install = await runDeadman(
    ['install', '--user', '--unit-dir', unitDir, '--name', 'job', '--on-failure', '--', 'sh', '-c', 'exit 64'],
    { env: { ...process.env, DEADMAN_CONFIG: '' }, cwd: dir },
  );
  assert.equal(install.code, 0, install.stderr);
  assert.deepEqual(readdirSync(unitDir).sort(), ['deadman-job-notify.service', 'deadman-job.service']);
  assert.match(install.stdout, /^created \S+deadman-job-notify\.service$/m);
  if (!findExecutable('systemd-analyze', process.env.PATH ?? '')) return t.skip('systemd-analyze is not installed');
  const runtime = join(dir, 'runtime');
  mkdirSync(runtime, { mode: 0o700 });
  const files = readdirSync(unitDir).map((file) => join(unitDir, file));
  const verified = await runProgram('systemd-analyze', ['verify', '--user', '--man=no', ...files], {
    env: { ...process.env, XDG_RUNTIME_DIR: runtime },
  });
  assert.equal(`${verified.stdout}${verified.stderr}`.trim(), '', readFileSync(files[0]!, 'utf8'));
  assert.equal(verified.code, 0);
});
