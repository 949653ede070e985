import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../lib/io/store/store.ts';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { startUserManager, type UserManager } from '../helpers/systemd.ts';
import {
  runOneshot,
  runWorkload,
  startLoopback,
  workDir,
  workloadAgent,
  workloadEnv,
  type Loopback,
} from '../units/workload.ts';

/**
 * Every kind of unit `deadman install` writes, started under a real systemd user manager with the
 * workload of test/units/workload-agent.sh: --user units (root's manager and one of another uid)
 * and system units (User=root and another User=), with the work under /tmp and elsewhere.
 *
 * What is exercised, honestly:
 * - --user units run under root's manager with its runtime dir under /run, as /run/user/0 is
 *   (on this host /run is no mount of its own: the harshest case, where ProtectProc= and
 *   ProtectControlGroups= once hid the notify socket), and under the manager of another uid.
 * - System units (User=root, and User= another user) run under root's user manager (its notify socket opened to every uid, as
 *   /run/systemd/notify is), which applies User=, CapabilityBoundingSet=,
 *   PrivateDevices= and the rest as the system manager does. What differs: StateDirectory= and
 *   CacheDirectory= resolve under the manager's HOME (~/.local/state, ~/.cache), not /var/lib and
 *   /var/cache; Wants=/After=network-online.target name a unit a user manager lacks (ignored); its
 *   runtime dir is under /var/lib, reachable by User=, instead of /run/systemd (whose /run is a
 *   tmpfs of its own on a booted host, unlike here).
 */

/** A user other than root with a home of their own (the first of uid 1000 and up), or null. */
const otherUser = (() => {
  try {
    for (const line of execFileSync('getent', ['passwd'], { encoding: 'utf8' }).trim().split('\n')) {
      const [name, , uid, gid, , home] = line.split(':');
      if (Number(uid) >= 1000 && Number(uid) < 65534 && home && existsSync(home))
        return { name: name!, uid: Number(uid), gid: Number(gid), home };
    }
  } catch {
    // no getent: no such user
  }
  return null;
})();
const NO_OTHER_USER = 'no user of uid 1000 or above with a home directory (useradd -m one to run this)';
// .ci/run makes such a user where the machine has none: there a skip would hide units never started.
if (!otherUser && process.env.DEADMAN_REQUIRE_SYSTEMD === '1')
  throw new Error(`${NO_OTHER_USER} (DEADMAN_REQUIRE_SYSTEMD=1 forbids skipping)`);

interface Install {
  manager: UserManager;
  loopback: Loopback;
  name: string;
  work: string;
  options: string[];
  /** Runs `deadman install` as this uid and gid (a user manager's own user). */
  uid?: number;
  gid?: number;
  env?: NodeJS.ProcessEnv;
}

async function install({
  manager,
  loopback,
  name,
  work,
  options,
  uid,
  gid,
  env = process.env,
}: Install): Promise<string> {
  const assignments = Object.entries(workloadEnv(loopback, work)).flatMap(([key, value]) => [
    '--env',
    `${key}=${value}`,
  ]);
  const result = await runDeadman(
    [
      'install',
      '--unit-dir',
      manager.unitDir,
      '--force',
      '--name',
      name,
      ...options,
      ...assignments,
      '--',
      '/bin/sh',
      workloadAgent,
    ],
    { cwd: work, env, ...(uid === undefined ? {} : { uid, gid: gid ?? uid }) },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal((await manager.systemctl('daemon-reload')).code, 0);
  return `deadman-${name}.service`;
}

function completedRuns(database: string, name: string): string[] {
  const store = new Store(database, { readOnly: true }); // a reader: the database may be the unit user's, which deadman never writes
  try {
    return store.all<{ outcome: string }>('SELECT outcome FROM runs WHERE name = ?', name).map((row) => row.outcome);
  } finally {
    store.close();
  }
}

test("generated --user units under root's user manager, runtime dir under /run", async (t) => {
  const manager = await startUserManager(t, { runtimeParent: '/run' });
  if (!manager) return;
  const loopback = await startLoopback(t);
  for (const [where, parent] of [
    ['elsewhere', homedir()],
    ['under /tmp', tempDir(t)],
  ] as const) {
    await t.test(`work ${where}; an exported STATE_DIRECTORY is where the records go`, async (tt) => {
      const work = workDir(tt, parent);
      const state = join(work, 'state');
      const name = `user-${where === 'elsewhere' ? 'home' : 'tmp'}`;
      const unit = await install({
        manager,
        loopback,
        name,
        work,
        options: ['--user'],
        env: { ...process.env, STATE_DIRECTORY: state },
      });
      const text = readFileSync(join(manager.unitDir, unit), 'utf8');
      assert.match(text, new RegExp(`^ReadWritePaths=.* ${state}( |$)`, 'm'));
      assert.match(text, new RegExp(`--state-dir ${state} `));
      assert.equal(
        /^PrivateTmp=yes$/m.test(text),
        where === 'elsewhere',
        'a private /tmp only where the work is not under /tmp',
      );
      await runWorkload(manager, unit, work, loopback);
      assert.deepEqual(completedRuns(join(state, 'deadman.db'), name), ['completed']);
    });
  }
});

test(
  'generated --user units (default and strict) under the user manager of a uid that is not root',
  { skip: !otherUser && NO_OTHER_USER },
  async (t) => {
    const { uid, gid, home, name } = otherUser!;
    const manager = await startUserManager(t, { parent: home, runtimeParent: '/run', uid, gid });
    if (!manager) return;
    const loopback = await startLoopback(t);
    const work = workDir(t, manager.env.HOME!, uid, gid);
    const unit = await install({
      manager,
      loopback,
      name: 'other-user',
      work,
      options: ['--user'],
      uid,
      gid,
      env: { ...manager.env, USER: name },
    });
    await runWorkload(manager, unit, work, loopback);
    const records = join(manager.env.HOME!, '.local', 'state', 'deadman', 'deadman.db');
    assert.deepEqual(
      completedRuns(records, 'other-user'),
      ['completed'],
      "the records are in that user's own state directory",
    );
    const strictWork = workDir(t, manager.env.HOME!, uid, gid);
    const strict = await install({
      manager,
      loopback,
      name: 'other-strict',
      work: strictWork,
      options: ['--user', '--sandbox', 'strict'],
      uid,
      gid,
      env: { ...manager.env, USER: name },
    });
    await runWorkload(manager, strict, strictWork, loopback);
  },
);

test("generated system units under root's user manager (which applies User= and capabilities)", async (t) => {
  const manager = await startUserManager(t, { runtimeParent: '/var/lib' });
  if (!manager) return;
  // A user manager's notify socket is its user's alone; the system manager's /run/systemd/notify takes every uid's.
  chmodSync(join(manager.env.XDG_RUNTIME_DIR!, 'systemd', 'notify'), 0o777);
  const loopback = await startLoopback(t);
  await t.test('User=root, work elsewhere, the records in StateDirectory=', async (tt) => {
    const work = workDir(tt, homedir());
    await runWorkload(
      manager,
      await install({ manager, loopback, name: 'root-home', work, options: ['--run-as', 'root'] }),
      work,
      loopback,
    );
  });
  await t.test(
    'User=root, work under /tmp, --state-dir; the --on-failure companion reads the same records',
    async (tt) => {
      const work = workDir(tt, tempDir(tt));
      const state = join(work, 'state');
      await runWorkload(
        manager,
        await install({
          manager,
          loopback,
          name: 'root-tmp',
          work,
          options: ['--run-as', 'root', '--state-dir', state, '--on-failure'],
        }),
        work,
        loopback,
      );
      await runOneshot(manager, 'deadman-root-tmp-notify.service');
      assert.match(
        readFileSync(manager.logPath, 'utf8'),
        new RegExp(`no incidents recorded for runs named root-tmp in ${state}/deadman\\.db`),
      );
    },
  );
  await t.test(
    `User=${otherUser?.name ?? 'another user'}: that user's own HOME is named writable, not root's`,
    { skip: !otherUser && NO_OTHER_USER },
    async (tt) => {
      const work = workDir(tt, otherUser!.home, otherUser!.uid, otherUser!.gid);
      const state = join(work, 'state');
      mkdirSync(state, { mode: 0o700 });
      chownSync(state, otherUser!.uid, otherUser!.gid);
      const unit = await install({
        manager,
        loopback,
        name: 'other',
        work,
        options: ['--run-as', otherUser!.name, '--state-dir', state],
      });
      assert.match(
        readFileSync(join(manager.unitDir, unit), 'utf8'),
        new RegExp(`^ReadWritePaths=${otherUser!.home} `, 'm'),
      );
      await runWorkload(manager, unit, work, loopback);
      assert.deepEqual(completedRuns(join(state, 'deadman.db'), 'other'), ['completed']);
    },
  );
  await t.test('--sandbox strict still runs work that needs no namespaces', async (tt) => {
    const work = workDir(tt, homedir());
    await runWorkload(
      manager,
      await install({ manager, loopback, name: 'strict', work, options: ['--run-as', 'root', '--sandbox', 'strict'] }),
      work,
      loopback,
    );
  });
});
