import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { startUserManager } from '../helpers/systemd.ts';
import { installShippedUnits } from '../helpers/units.ts';
import {
  runOneshot,
  runWorkload,
  startLoopback,
  workDir,
  workloadAgent,
  workloadEnv,
  WORKLOAD_STEPS,
} from './workload.ts';

/**
 * Every shipped unit, started under root's user manager with the workload of workload-agent.sh
 * (see test/commands/unit-workload-systemd.test.ts for what such a manager does and does not
 * apply of a system unit). Paths an installed deadman has are moved into temp dirs:
 * /usr/bin/deadman becomes this checkout's entry run by this Node, /etc/deadman the job's
 * config dir, /var/lib/deadman the records' dir. Nothing else of the units is changed.
 */

const SHIPPED = ['deadman@.service', 'deadman-notify@.service', 'deadman-check.service'];

test("the shipped units carry an agent's work under a real user manager", async (t) => {
  const manager = await startUserManager(t, { runtimeParent: '/var/lib' });
  if (!manager) return;
  chmodSync(join(manager.env.XDG_RUNTIME_DIR!, 'systemd', 'notify'), 0o777);
  const loopback = await startLoopback(t);
  const etc = workDir(t, homedir());
  const records = join(etc, 'records');
  mkdirSync(records, { mode: 0o700 });
  const work = workDir(t, homedir());
  await installShippedUnits(manager, SHIPPED, { etc, records });
  const command = [
    '/usr/bin/env',
    ...Object.entries(workloadEnv(loopback, work)).map(([key, value]) => `${key}=${value}`),
    '/bin/sh',
    workloadAgent,
  ];
  writeFileSync(
    join(etc, 'wl.toml'),
    `command = ${JSON.stringify(command)}\ncwd = "${work}"\ndatabase = "${join(records, 'deadman.db')}"\n`,
  );

  await t.test('deadman@NAME: READY, Status:, the whole workload, exit 0', () =>
    runWorkload(manager, 'deadman@wl.service', work, loopback),
  );
  await t.test('deadman-notify@NAME reports and alerts from inside its sandbox', () =>
    runOneshot(manager, 'deadman-notify@wl.service'),
  );
  await t.test("deadman-check runs a command claim that does the workload's steps", async () => {
    const probe = workDir(t, homedir());
    const claim = [
      '/usr/bin/env',
      ...Object.entries({ ...workloadEnv(loopback, probe), WORKLOAD_RELEASE: '' }).map(
        ([key, value]) => `${key}=${value}`,
      ),
      '/bin/sh',
      workloadAgent,
    ];
    writeFileSync(
      join(etc, 'deadman.toml'),
      [
        `database = "${join(records, 'deadman.db')}"`,
        '[jobs.wl]',
        'rerun = ["true"]',
        '[[jobs.wl.evidence]]',
        'kind = "command"',
        `command = ${JSON.stringify(claim)}`,
        `cwd = "${probe}"`,
        '',
      ].join('\n'),
    );
    await runOneshot(manager, 'deadman-check.service');
    assert.deepEqual(
      readFileSync(join(probe, 'workload-steps'), 'utf8').trim().split('\n'),
      WORKLOAD_STEPS.map((step) => `ok ${step}`),
    );
  });
});
