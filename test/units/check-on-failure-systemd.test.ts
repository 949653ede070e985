import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { runDeadman, waitFor } from '../helpers/cli.ts';
import { loopbackSink } from '../helpers/loopback-sink.ts';
import { startUserManager } from '../helpers/systemd.ts';
import { installShippedUnits } from '../helpers/units.ts';
import { workDir } from './workload.ts';

/**
 * deadman-check.service and the deadman-check-notify.service its OnFailure= starts, as shipped,
 * under a real user manager (paths moved into temp dirs as in shipped-workload-systemd.test.ts),
 * with a loopback webhook: the check alerts its dead jobs itself and OnFailure= fires but skips
 * what the check already said; a pass the check could not fully say (a refused job) is alerted
 * by OnFailure=. Then min_duration judged from a real unit's timestamps, and the shipped timer
 * started.
 */

const UNITS = ['deadman-check.service', 'deadman-check-notify.service', 'deadman-check.timer'];

const deadJob = (dir: string, name: string) =>
  `[jobs.${name}]\n[[jobs.${name}.evidence]]\nkind = "command"\ncommand = ["test", "-e", "${dir}/${name}.ok"]\n`;

test('deadman-check under a real user manager', async (t) => {
  const manager = await startUserManager(t, { runtimeParent: '/var/lib' });
  if (!manager) return;
  chmodSync(join(manager.env.XDG_RUNTIME_DIR!, 'systemd', 'notify'), 0o777);
  const sink = await loopbackSink(t);
  const etc = workDir(t, homedir());
  const records = join(etc, 'records');
  mkdirSync(records, { mode: 0o700 });
  await installShippedUnits(manager, UNITS, { etc, records });
  const header = `state_dir = "${records}"\n[notify]\nwebhook = ["${sink.url}/hook"]\n`;
  const alerts = () =>
    sink.received.map(
      (r) =>
        JSON.parse(r.body) as {
          name: string;
          source: string;
          event: string;
          exit_code: number | null;
          outcome: string | null;
        },
    );
  const notifyStarts = async () =>
    Number(
      (await manager.show('deadman-check-notify.service', ['ExecMainStartTimestampMonotonic']))
        .ExecMainStartTimestampMonotonic,
    );

  await t.test('two dead jobs: the check alerts each; OnFailure= fires and skips what the check said', async () => {
    writeFileSync(join(etc, 'deadman.toml'), `${header}${deadJob(etc, 'export')}${deadJob(etc, 'backup')}`);
    const started = await manager.systemctl('start', 'deadman-check.service');
    assert.notEqual(started.code, 0, 'a dead job fails the pass');
    const check = await manager.show('deadman-check.service', ['Result', 'ExecMainStatus']);
    assert.deepEqual([check.Result, check.ExecMainStatus], ['exit-code', '1']);
    await waitFor(
      () => readFileSync(manager.logPath, 'utf8').includes('skipped: deadman-check/fail/1'),
      30_000,
      'OnFailure= ran deadman notify',
    ).catch(() => assert.fail(readFileSync(manager.logPath, 'utf8').split('\n').slice(-20).join('\n')));
    assert.match(readFileSync(manager.logPath, 'utf8'), /skipped: deadman-check\/fail\/1: the run sent it itself/);
    assert.deepEqual(
      alerts()
        .map((a) => [a.source, a.name, a.event, a.outcome])
        .sort(),
      [
        ['check', 'backup', 'fail', 'dead'],
        ['check', 'export', 'fail', 'dead'],
      ],
    );
  });

  await t.test('a refused job: OnFailure= alerts the failed pass with its exit status', async () => {
    const before = await notifyStarts();
    writeFileSync(
      join(etc, 'deadman.toml'),
      `${header}${deadJob(etc, 'export')}${deadJob(etc, 'backup')}[jobs.prose]\nrerun = ["Run the backup script again by hand"]\n${deadJob(etc, 'prose').split('\n').slice(1).join('\n')}`,
    );
    await manager.systemctl('start', 'deadman-check.service');
    assert.equal((await manager.show('deadman-check.service', ['ExecMainStatus'])).ExecMainStatus, '78');
    await waitFor(() => alerts().some((a) => a.source === 'notify'), 30_000, 'the OnFailure= alert').catch(() =>
      assert.fail(readFileSync(manager.logPath, 'utf8').split('\n').slice(-20).join('\n')),
    );
    assert.ok((await notifyStarts()) > before);
    const sent = alerts().filter((a) => a.source === 'notify');
    assert.deepEqual(
      sent.map((a) => [a.name, a.event, a.exit_code]),
      [['deadman-check', 'fail', 78]],
    );
    assert.equal(alerts().filter((a) => a.source === 'check').length, 2, 'the dead jobs are not alerted again');
  });

  await t.test('min_duration: a unit that ends too fast is dead; within bounds alive; never run unknown', async () => {
    await manager.writeUnit('quick-backup.service', '[Service]\nType=oneshot\nExecStart=/bin/true\n');
    // As a scheduled job has: a timer refers to the service, so systemd keeps it (and its last run) loaded.
    await manager.writeUnit('quick-backup.timer', '[Timer]\nOnCalendar=2099-01-01\n');
    assert.equal((await manager.systemctl('start', 'quick-backup.timer')).code, 0);
    await manager.writeUnit('never-run.service', '[Service]\nType=oneshot\nExecStart=/bin/true\n');
    const ran = await manager.systemctl('start', 'quick-backup.service');
    assert.equal(ran.code, 0, ran.stderr);
    const job = (name: string, unit: string, bound: string) =>
      `[jobs.${name}]\nunit = "${unit}"\nmanager = "user"\n${bound}\n[[jobs.${name}.evidence]]\nkind = "command"\ncommand = ["true"]\n`;
    const config = join(etc, 'durations.toml');
    writeFileSync(
      config,
      `${job('backup', 'quick-backup.service', 'min_duration = "1min"')}${job('bounded', 'quick-backup.service', 'max_duration = "1h"')}${job('never', 'never-run.service', 'min_duration = "1s"')}`,
    );
    const result = await runDeadman(['check', '-v', '--config', config, '--state-dir', join(etc, 'durations')], {
      env: manager.env,
      detached: true,
    });
    assert.equal(result.code, 1, result.stderr);
    const lines = result.stdout.trimEnd().split('\n');
    assert.equal(lines[0], 'DEAD   backup', result.stdout);
    assert.match(
      lines[1]!,
      /^ {7}quick-backup\.service's last run took \S+, shorter than min_duration 1min: too fast$/,
    );
    assert.equal(lines[2], 'alive  bounded');
    assert.deepEqual(lines.slice(3, 5), [
      'UNKNOWN never',
      '       no run of never-run.service known: systemd keeps no run of it (none since the manager started, or the unit was unloaded: nothing, such as a timer, refers to it)',
    ]);
    assert.equal(lines.at(-1), '3 checked | 1 green and dead | 1 unknown | 1 alive');
  });

  await t.test('the shipped timer loads, schedules the check and names it', async () => {
    const started = await manager.systemctl('start', 'deadman-check.timer');
    assert.equal(started.code, 0, started.stderr);
    const timer = await manager.show('deadman-check.timer', [
      'ActiveState',
      'Unit',
      'NextElapseUSecRealtime',
      'LoadState',
    ]);
    assert.deepEqual([timer.LoadState, timer.ActiveState, timer.Unit], ['loaded', 'active', 'deadman-check.service']);
    assert.match(timer.NextElapseUSecRealtime ?? '', /\d/, 'a next pass is scheduled');
  });
});
