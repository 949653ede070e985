import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { isServiceCgroup, systemdCgroupPath } from '../../../lib/io/process/cgroup.ts';
import { tempDir } from '../../helpers/cli.ts';
import { nodeFixture, shellFixture } from '../../helpers/process-tree.ts';
import { startUserManager } from '../../helpers/systemd.ts';

const HYBRID = `9:name=systemd:/app.slice/agent.service
8:pids:/app.slice/agent.service
4:memory:/app.slice/agent.service
1:cpu:/app.slice
0::/app.slice/agent.service
`;

test('finds the cgroup systemd tracks the process in: v1 name=systemd, or v2', () => {
  assert.deepEqual(systemdCgroupPath(HYBRID, false), {
    mount: '/sys/fs/cgroup/systemd',
    path: '/app.slice/agent.service',
  });
  assert.deepEqual(systemdCgroupPath('0::/system.slice/agent.service\n', true), {
    mount: '/sys/fs/cgroup',
    path: '/system.slice/agent.service',
  });
  assert.equal(systemdCgroupPath('0::/system.slice/agent.service\n', false), null, 'no v1 hierarchy on a v2 host');
  assert.equal(systemdCgroupPath('', true), null);
  assert.equal(systemdCgroupPath('garbage\n\u0000::\n', false), null);
});

test('only a service cgroup proves ownership, never a session scope, a slice or the root', () => {
  const cases: Array<[string, boolean]> = [
    ['/system.slice/agent.service', true],
    ['/user.slice/user-0.slice/user@0.service/app.slice/run-u3.service', true],
    ['/user.slice/user-0.slice/session-3.scope', false],
    ['/system.slice', false],
    ['/', false],
    ['/init.scope', false],
    ['/app.slice/x.service/sub', false],
    ['.service', false],
  ];
  for (const [path, expected] of cases) assert.equal(isServiceCgroup(path), expected, path);
});

test('under a systemd service, an escapee never seen in the PID chain is owned and stopped', async (t) => {
  const manager = await startUserManager(t);
  if (!manager) return;
  const resultFile = join(tempDir(t), 'result.json');
  // systemd-run makes the fixture the service's main process, as ExecStart= makes deadman.
  const unit = [process.execPath, nodeFixture('observe-in-unit'), shellFixture('double-fork.sh'), resultFile];
  await promisify(execFile)('systemd-run', ['--user', '--wait', '--collect', '--quiet', ...unit], {
    env: manager.env,
    timeout: 30_000,
  });
  const result = JSON.parse(readFileSync(resultFile, 'utf8'));
  assert.match(result.cgroup, /\.service$/, 'deadman saw its unit cgroup');
  assert.equal(result.foundByChain, false, 'the PID chain alone misses it (the documented limit)');
  assert.equal(result.foundWithCgroup, true, 'the cgroup finds it');
  assert.equal(result.helperOwned, false, "deadman's own helpers in the cgroup are not the run's");
  assert.ok(result.stopped.includes(result.escaped), 'it got the stop (SIGTERM to every owned process)');
  assert.equal(result.escapedAliveAfterStop, false);
});
