import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseProperties, startUserManager } from './systemd.ts';

test('parses systemctl show output', () => {
  assert.deepEqual(parseProperties('ActiveState=active\nStatusText=a=b c\n\nNRestarts=0\n'), {
    ActiveState: 'active',
    StatusText: 'a=b c',
    NRestarts: '0',
  });
});

test('a private user manager runs a Type=notify unit and cleans up after itself', async (t) => {
  const manager = await startUserManager(t);
  if (!manager) return;
  const ownCgroup = readFileSync(`/proc/${manager.pid}/cgroup`, 'utf8');
  assert.match(ownCgroup, /deadman-test-\d+-\w+\/init\.scope/, 'the manager lives in its own sub-cgroup');

  await manager.writeUnit(
    'ready.service',
    [
      '[Service]',
      'Type=notify',
      'NotifyAccess=all',
      'ExecStart=/bin/sh -c \'systemd-notify --ready --status="waiting for the test"; exec sleep 300\'',
      '',
    ].join('\n'),
  );
  const started = await manager.systemctl('start', 'ready.service');
  assert.equal(started.code, 0, started.stderr);
  const props = await manager.waitFor(
    'ready.service',
    (p) => p.ActiveState === 'active' && p.StatusText !== '',
    10_000,
  );
  assert.equal(props.SubState, 'running');
  assert.equal(props.NRestarts, '0');
  assert.match(await manager.status('ready.service'), /Status: "waiting for the test"/);

  const mainPid = Number(props.MainPID);
  assert.ok(mainPid > 0);
  const unitCgroup = readFileSync(`/proc/${mainPid}/cgroup`, 'utf8');
  assert.match(unitCgroup, /deadman-test-\d+-\w+\/app\.slice\/ready\.service/);

  await manager.stop();
  assert.equal(existsSync(`/proc/${mainPid}`), false, "the unit's process is gone after stop()");
  assert.equal(existsSync(`/proc/${manager.pid}`), false, 'the manager is gone after stop()');
  assert.equal(existsSync(join(manager.unitDir, 'ready.service')), false, 'the private HOME is removed');
});
