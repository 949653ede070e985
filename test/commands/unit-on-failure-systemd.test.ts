import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { runDeadman, waitFor } from '../helpers/cli.ts';
import { startUserManager } from '../helpers/systemd.ts';

/**
 * Under a real systemd user manager: a generated unit with `--on-failure` whose command exits
 * with a code the unit does not retry (64) fails, and systemd starts the companion, which prints
 * the report into the job's log and alerts the [notify] command sink with the exit status.
 */
test('a failing generated unit triggers its OnFailure= unit, which reports and alerts with the exit code', async (t) => {
  const manager = await startUserManager(t);
  if (!manager) return;
  // Under HOME, not /tmp: the hardened unit has a private /tmp.
  const work = mkdtempSync(join(homedir(), '.deadman-on-failure-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const alert = join(work, 'alert.json');
  const config = join(work, 'job.toml');
  writeFileSync(config, `[notify]\ncommand = ["/bin/sh", "-c", "cat > ${alert}"]\n`);
  const install = await runDeadman([
    'install', '--user', '--unit-dir', manager.unitDir, '--name', 'failing', '--config', config, '--database', join(work, 'state', 'deadman.db'),
    '--on-failure', '--', 'sh', '-c', 'echo giving up; exit 64',
  ], { cwd: work, env: { ...process.env, DEADMAN_CONFIG: '' } });
  assert.equal(install.code, 0, install.stderr);
  assert.equal((await manager.systemctl('daemon-reload')).code, 0);

  await manager.systemctl('start', 'deadman-failing.service');
  const failed = await manager.waitFor('deadman-failing.service', (p) => p.ActiveState === 'failed', 20_000);
  assert.deepEqual([failed.ExecMainStatus, failed.NRestarts], ['64', '0'], JSON.stringify(failed));
  const notify = await manager.waitFor('deadman-failing-notify.service', (p) => p.Result === 'success' && p.ActiveState === 'inactive' && p.ExecMainStatus === '0', 20_000);
  assert.equal(notify.Result, 'success');
  const sent = JSON.parse(await waitFor(() => { try { return readFileSync(alert, 'utf8'); } catch { return null; } }, 10_000, 'the alert')) as Record<string, unknown>;
  assert.deepEqual([sent.event, sent.name, sent.exit_code], ['fail', 'failing', 64], JSON.stringify(sent));
  assert.match(readFileSync(manager.logPath, 'utf8'), /no incidents recorded for runs named failing|incident #\d+/);
});
