import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../lib/io/store/store.ts';
import { runDeadman } from '../helpers/cli.ts';
import { fakeAgent } from '../helpers/fake-agent.ts';
import { startUserManager } from '../helpers/systemd.ts';

/**
 * The sandboxing of a generated unit under a real systemd user manager: a fake Codex still
 * runs its tool, writes into its working directory and finishes with exit 0, while the rest of
 * the file system is read-only to it. The work lives under HOME, not /tmp, so the unit also
 * gets its private /tmp wherever deadman itself is not installed under /tmp.
 */

const outsideProbe = '/usr/local/.deadman-sandbox-probe';

test('a hardened generated unit runs a fake agent to completion, writing only where it may', async (t) => {
  const manager = await startUserManager(t);
  if (!manager) return;
  const work = mkdtempSync(join(homedir(), '.deadman-hardened-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  t.after(() => rmSync(outsideProbe, { force: true }));
  const database = join(work, 'state', 'deadman.db');
  const tool = `echo built > ${join(work, 'out.txt')}; touch ${outsideProbe} 2> ${join(work, 'outside.err')}; exit 0`;
  const install = await runDeadman(
    [
      'install',
      '--user',
      '--unit-dir',
      manager.unitDir,
      '--name',
      'hardened',
      '--database',
      database,
      '--env',
      `STATE_DIRECTORY=${join(work, 'state')}`,
      '--env',
      `FAKE_AGENT_TOOL=${tool}`,
      '--',
      process.execPath,
      fakeAgent,
      'codex',
      'exec',
      '--json',
      'build it',
    ],
    { cwd: work },
  );
  assert.equal(install.code, 0, install.stderr);
  const unitText = readFileSync(join(manager.unitDir, 'deadman-hardened.service'), 'utf8');
  assert.match(unitText, /^ProtectSystem=strict$/m);
  assert.match(unitText, /^NoNewPrivileges=yes$/m);
  assert.equal((await manager.systemctl('daemon-reload')).code, 0);

  assert.equal(
    (await manager.systemctl('start', 'deadman-hardened.service')).code,
    0,
    readFileSync(manager.logPath, 'utf8').slice(-2000),
  );
  const done = await manager.waitFor(
    'deadman-hardened.service',
    (p) => p.ActiveState === 'inactive' || p.ActiveState === 'failed',
    20_000,
  );
  assert.equal(done.Result, 'success', JSON.stringify(done));
  assert.equal(done.ExecMainStatus, '0');
  assert.equal(readFileSync(join(work, 'out.txt'), 'utf8'), 'built\n', 'the tool wrote into the working directory');
  assert.equal(existsSync(outsideProbe), false, 'nothing outside HOME, the work and the records is writable');
  assert.match(readFileSync(join(work, 'outside.err'), 'utf8'), /Read-only file system/);
  const store = new Store(database);
  try {
    const run = store.all<{ outcome: string }>(`SELECT outcome FROM runs WHERE name = 'hardened'`);
    assert.deepEqual(
      run.map((r) => r.outcome),
      ['completed'],
    );
  } finally {
    store.close();
  }
});
