import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { runDeadman, waitFor } from '../helpers/cli.ts';
import { startUserManager } from '../helpers/systemd.ts';
import { wholeJsonLines } from '../helpers/json-lines.ts';

/**
 * Under a real systemd user manager: a generated unit with `--on-failure` whose command exits
 * with a code the unit does not retry (64) fails, and systemd starts the companion, which prints
 * the report into the job's log. The run already alerted the [notify] command sink with the exit
 * status itself, so the companion's `deadman notify` does not send it again.
 */
test('a failing generated unit alerts with the exit code and triggers its OnFailure= unit, which reports and does not alert twice', async (t) => {
  const manager = await startUserManager(t);
  if (!manager) return;
  // Under HOME, not /tmp: the hardened unit has a private /tmp.
  const work = mkdtempSync(join(homedir(), '.deadman-on-failure-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const alerts = join(work, 'alerts.jsonl');
  const config = join(work, 'job.toml');
  writeFileSync(config, `[notify]\ncommand = ["/bin/sh", "-c", "cat >> ${alerts}; echo >> ${alerts}"]\n`);
  const install = await runDeadman(
    [
      'install',
      '--user',
      '--unit-dir',
      manager.unitDir,
      '--name',
      'failing',
      '--config',
      config,
      '--state-dir',
      join(work, 'state'),
      '--on-failure',
      '--',
      'sh',
      '-c',
      'echo giving up; exit 64',
    ],
    { cwd: work, env: { ...process.env, DEADMAN_CONFIG: '' } },
  );
  assert.equal(install.code, 0, install.stderr);
  assert.equal((await manager.systemctl('daemon-reload')).code, 0);

  await manager.systemctl('start', 'deadman-failing.service');
  const failed = await manager.waitFor('deadman-failing.service', (p) => p.ActiveState === 'failed', 20_000);
  assert.deepEqual([failed.ExecMainStatus, failed.NRestarts], ['64', '0'], JSON.stringify(failed));
  const notify = await manager.waitFor(
    'deadman-failing-notify.service',
    (p) => p.Result === 'success' && p.ActiveState === 'inactive' && p.ExecMainStatus === '0',
    20_000,
  );
  assert.equal(notify.Result, 'success');
  const sent = await waitFor(
    () => {
      const lines = wholeJsonLines<Record<string, unknown>>(alerts);
      return lines.length > 0 ? lines : null;
    },
    10_000,
    'the alert',
  );
  assert.deepEqual(
    sent.map((a) => [a.event, a.name, a.exit_code, a.source]),
    [['fail', 'failing', 64, 'run']],
    JSON.stringify(sent),
  );
  const log = readFileSync(manager.logPath, 'utf8');
  assert.match(log, /no incidents recorded for runs named failing|incident #\d+/);
  assert.match(log, /skipped: failing\/fail\/64: the run sent it itself/);
});
