import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { deadmanBin, repoRoot, waitFor } from '../helpers/cli.ts';
import { startUserManager, type UserManager } from '../helpers/systemd.ts';

/**
 * The shipped template as an operator uses it, in a real user manager: deadman@NAME runs
 * the command of /etc/deadman/NAME.toml with its settings, and when it gives up, OnFailure= runs
 * deadman-notify@NAME. Paths are moved into a temp dir; /usr/bin/deadman becomes this
 * checkout's entry run by this Node (its #!/usr/bin/env node could find an older Node).
 */

/** A checkout under /tmp (not where an installed deadman lives) would vanish behind PrivateTmp=. */
const checkoutInTmp = [process.execPath, deadmanBin].some((path) => /^\/(var\/)?tmp\//.test(path));

function installTemplates(manager: UserManager, etc: string): Promise<void[]> {
  return Promise.all(
    ['deadman@.service', 'deadman-notify@.service'].map((file) => {
      const text = readFileSync(join(repoRoot, 'units', file), 'utf8')
        .replaceAll('/usr/bin/deadman', `${process.execPath} ${deadmanBin}`)
        .replaceAll('/etc/deadman/', `${etc}/`)
        .replace(/^PrivateTmp=yes$/m, checkoutInTmp ? 'PrivateTmp=no' : 'PrivateTmp=yes');
      return manager.writeUnit(file, text);
    }),
  );
}

function listOrNone(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true }) as string[];
  } catch {
    return [];
  }
}

function writeJob(etc: string, name: string, script: string): void {
  const command = JSON.stringify(['sh', '-c', script]);
  writeFileSync(
    join(etc, `${name}.toml`),
    `command = ${command}\ncwd = "${etc}"\ndatabase = "${join(etc, 'deadman.db')}"\ninactivity = "1min"\n`,
  );
}

test('the deadman@ template under a real user manager', async (t) => {
  const manager = await startUserManager(t);
  if (!manager) return;
  // Like /etc/deadman, outside /tmp: the unit has a /tmp of its own.
  const etc = mkdtempSync(join(homedir(), '.deadman-etc-'));
  t.after(() => rmSync(etc, { recursive: true, force: true }));
  await installTemplates(manager, etc);

  await t.test("deadman@NAME runs the command of NAME.toml and shows deadman's status", async () => {
    writeJob(etc, 'ticker', "exec sh -c 'while :; do echo tick; sleep 0.3; done'");
    assert.equal((await manager.systemctl('start', 'deadman@ticker.service')).code, 0);
    await manager.waitFor(
      'deadman@ticker.service',
      (p) => p.ActiveState === 'active' && (p.StatusText ?? '').startsWith('ok'),
      10_000,
    );
    assert.match(await manager.status('deadman@ticker.service'), /Status: "ok · /);
    assert.equal((await manager.systemctl('stop', 'deadman@ticker.service')).code, 0);
    // CacheDirectory= holds Node's compile cache, which PrivateTmp= would wipe at every start.
    const cacheHome = manager.env.XDG_CACHE_HOME ?? join(manager.env.HOME!, '.cache');
    const compileCache = join(cacheHome, 'deadman', 'compile-cache');
    await waitFor(() => listOrNone(compileCache).length > 0, 10_000, `compiled code in ${compileCache}`);
    // And the config validated at this start, which the next start takes instead of zod's work.
    assert.equal(
      listOrNone(join(cacheHome, 'deadman', 'config-cache')).filter((name) => name.endsWith('.json')).length,
      1,
    );
  });

  await t.test('an exit that must not be retried fails the unit, and OnFailure= prints the report', async () => {
    writeJob(etc, 'broken', 'echo "no evidence"; exit 65');
    await manager.systemctl('start', 'deadman@broken.service');
    const props = await manager.waitFor('deadman@broken.service', (p) => p.ActiveState === 'failed', 10_000);
    assert.equal(props.NRestarts, '0', 'RestartPreventExitStatus= kept systemd from retrying');
    assert.equal(props.ExecMainStatus, '65');
    await waitFor(
      () => readFileSync(manager.logPath, 'utf8').includes('no incidents recorded for runs named broken in'),
      10_000,
      'the report line of deadman-notify@broken',
    );
    const notify = await manager.show('deadman-notify@broken.service');
    assert.equal(notify.Result, 'success', JSON.stringify(notify));
    // A run that ended (not one stopped by a signal) left the code cache of all it compiled
    // (bin/run-scripts.js) in CacheDirectory= too, past the unit's PrivateTmp=.
    const compileCache = join(
      manager.env.XDG_CACHE_HOME ?? join(manager.env.HOME!, '.cache'),
      'deadman',
      'compile-cache',
    );
    assert.ok(
      listOrNone(compileCache).some((version) => listOrNone(join(compileCache, version, 'deadman-run')).length > 0),
      `deadman's code cache in ${compileCache}`,
    );
  });
});
