import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reviveUnitName, systemdRunArgv, type TransientRevive } from '../../../lib/core/units/transient-unit.ts';
import { deriveTimings } from '../../../lib/core/units/unit-timings.ts';

const spec: TransientRevive = {
  manager: 'user',
  unitName: 'deadman-revive-job-01a23300.service',
  description: 'deadman revive: job',
  timings: deriveTimings({ inactivity: 60_000, stop_grace: 10_000, ready_timeout: 30_000 }),
  notify: { addonLoaded: false, why: 'not built' },
  workingDirectory: '/srv/work',
  environmentNames: ['HOME', 'PATH'],
  run: ['/usr/bin/node', '/opt/deadman/bin/deadman.js', 'run', '--name', 'job', '--', 'codex', 'exec', '--json', 'x'],
};

test('the unit name is the run name and the session id prefix, with what systemd would not take replaced', () => {
  assert.equal(reviveUnitName('job', '01a23300-0000-7000-8000-0000000000a1'), 'deadman-revive-job-01a23300.service');
  assert.equal(reviveUnitName('a b@c', 'x/y'), 'deadman-revive-a_b_c-x_y.service');
});

test("systemd-run gets the generated units' notify settings, the timings, the environment by name, then the run", () => {
  const argv = systemdRunArgv(spec);
  assert.deepEqual(argv.slice(0, 8), [
    'systemd-run',
    '--user',
    '--no-block',
    '--collect',
    '--quiet',
    `--unit=${spec.unitName}`,
    '--description=deadman revive: job',
    '--working-directory=/srv/work',
  ]);
  const properties = argv.flatMap((arg, i) => (argv[i - 1] === '-p' ? [arg] : []));
  assert.deepEqual(properties, [
    'Type=notify',
    'NotifyAccess=all',
    'WatchdogSec=15s',
    'TimeoutStartSec=60s',
    'TimeoutStopSec=30s',
    'KillMode=control-group',
  ]);
  assert.deepEqual(
    argv.filter((arg) => arg.startsWith('--setenv=')),
    ['--setenv=HOME', '--setenv=PATH'],
  );
  assert.deepEqual(argv.slice(argv.indexOf('--') + 1), spec.run);
  const system = systemdRunArgv({ ...spec, manager: 'system', notify: { addonLoaded: true } });
  assert.ok(!system.includes('--user'));
  assert.ok(system.includes('NotifyAccess=main'));
});
