import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Store } from '../../lib/io/store/store.ts';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { startUserManager, type UserManager } from '../helpers/systemd.ts';

/**
 * The generated --user unit, installed with `deadman install`, running `deadman run` in a real
 * systemd user manager: a healthy command keeps it up with deadman's Status: line, a stalled
 * one is restarted by the watchdog. Needs `deadman run` (issue 3).
 */

const node = process.execPath;

async function installUnit(
  manager: UserManager,
  dir: string,
  name: string,
  options: string[],
  command: string[],
  env = process.env,
): Promise<string> {
  const result = await runDeadman(
    [
      'install',
      '--user',
      '--unit-dir',
      manager.unitDir,
      '--name',
      name,
      '--database',
      join(dir, 'deadman.db'),
      '--env',
      `STATE_DIRECTORY=${join(dir, 'state')}`,
      ...options,
      '--',
      ...command,
    ],
    { cwd: dir, env },
  );
  assert.equal(result.code, 0, result.stderr);
  const reload = await manager.systemctl('daemon-reload');
  assert.equal(reload.code, 0, reload.stderr);
  return `deadman-${name}.service`;
}

function unitLog(manager: UserManager): string {
  return readFileSync(manager.logPath, 'utf8').split('\n').slice(-20).join('\n');
}

test('generated --user units under a real systemd user manager', async (t) => {
  const manager = await startUserManager(t);
  if (!manager) return;
  const dir = tempDir(t);

  await t.test("a healthy command stays up and systemctl status shows deadman's Status: line", async () => {
    const unit = await installUnit(
      manager,
      dir,
      'healthy',
      ['--inactivity', '3s', '--watchdog', '2s', '--restart-sec', '1s'],
      [node, '-e', 'setInterval(() => console.log("tick"), 300)'],
    );
    const started = await manager.systemctl('start', unit);
    assert.equal(started.code, 0, `${started.stderr}\n${unitLog(manager)}`);
    await manager.waitFor(unit, (p) => p.ActiveState === 'active' && (p.StatusText ?? '').startsWith('ok'), 10_000);
    await new Promise((r) => setTimeout(r, 5_000)); // longer than two watchdog periods
    const props = await manager.show(unit);
    assert.equal(props.NRestarts, '0', JSON.stringify(props));
    assert.equal(props.ActiveState, 'active');
    assert.match(await manager.status(unit), /Status: "ok · /);
    assert.equal((await manager.systemctl('stop', unit)).code, 0);
  });

  await t.test('generated for the systemd-notify fallback, the unit says NotifyAccess=all and stays up', async () => {
    const unit = await installUnit(
      manager,
      dir,
      'fallback',
      ['--inactivity', '3s', '--watchdog', '2s', '--restart-sec', '1s'],
      [node, '-e', 'setInterval(() => console.log("tick"), 300)'],
      { ...process.env, DEADMAN_NOTIFY: 'systemd-notify' },
    );
    assert.match(readFileSync(join(manager.unitDir, unit), 'utf8'), /^NotifyAccess=all$/m);
    assert.equal((await manager.systemctl('start', unit)).code, 0, unitLog(manager));
    await manager.waitFor(unit, (p) => p.ActiveState === 'active' && (p.StatusText ?? '').startsWith('ok'), 10_000);
    await new Promise((r) => setTimeout(r, 5_000));
    assert.equal((await manager.show(unit)).NRestarts, '0');
    assert.match(
      readFileSync(manager.logPath, 'utf8'),
      /run fallback · .*notify systemd-notify/,
      'the run used the fallback',
    );
    assert.equal((await manager.systemctl('stop', unit)).code, 0);
  });

  await t.test('a stalled command is restarted by the watchdog, and the incident is recorded', async () => {
    const unit = await installUnit(
      manager,
      dir,
      'stalled',
      ['--inactivity', '2s', '--watchdog', '2s', '--restart-sec', '1s'],
      ['/bin/sh', '-c', 'echo started; exec sleep 600'],
    );
    assert.equal((await manager.systemctl('start', unit)).code, 0, unitLog(manager));
    // inactivity 2s + watchdog 2s + RestartSec 1s, with room for a loaded machine.
    // Result=watchdog lasts through RestartSec: the watchdog, not an exit, ended the stalled run.
    await manager.waitFor(unit, (p) => p.Result === 'watchdog', 15_000);
    const props = await manager.waitFor(unit, (p) => Number(p.NRestarts) >= 1, 10_000);
    assert.ok(Number(props.NRestarts) >= 1);
    await manager.systemctl('stop', unit);
    const store = new Store(join(dir, 'deadman.db'));
    try {
      const incidents = store.all<{ kind: string }>(
        `SELECT i.kind FROM incidents i JOIN runs r ON r.id = i.run_id WHERE r.name = 'stalled'`,
      );
      assert.ok(
        incidents.some((i) => i.kind === 'OUTPUT_INACTIVITY'),
        JSON.stringify(incidents),
      );
    } finally {
      store.close();
    }
    const report = await runDeadman([
      'report',
      'latest',
      '--name',
      'stalled',
      '--json',
      '--database',
      join(dir, 'deadman.db'),
    ]);
    assert.equal((JSON.parse(report.stdout) as { kind: string }).kind, 'OUTPUT_INACTIVITY');
  });
});
