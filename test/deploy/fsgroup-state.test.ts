import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, repoRoot, tempDir } from '../helpers/cli.ts';

/**
 * A state volume as Kubernetes mounts it with `securityContext.fsGroup`: root's, group-writable
 * and setgid (2775). The markers cannot live in it directly (the marker rules refuse such a
 * parent), so deadman keeps them in a 0700 `private/` of its own inside it, and a stalled run is
 * resumed from there. As root the runs are made as another uid in the fsGroup, like a pod's.
 */
const fakeAgent = join(repoRoot, 'dist', 'lib', 'demo', 'fake-agent.js');
const POD_UID = 4242;
const FS_GROUP = 4343;
const asRoot = process.geteuid?.() === 0;

test("revive markers work on an fsGroup volume (2775, root's): kept in a private 0700 directory inside it", (t) => {
  const outer = tempDir(t);
  chmodSync(outer, 0o755);
  const volume = join(outer, 'volume');
  mkdirSync(volume);
  if (asRoot) chownSync(volume, 0, FS_GROUP);
  chmodSync(volume, 0o2775);
  const argvLog = join(volume, 'argv.jsonl');
  const run = (scenario: string) => {
    const argv = [
      process.execPath,
      deadmanBin,
      'run',
      '--name',
      'job',
      '--adapter',
      'codex',
      '--poll',
      '200ms',
      '--inactivity',
      '1s',
      '--stop-grace',
      '1s',
      '--',
      process.execPath,
      fakeAgent,
      'codex',
      'exec',
      '--json',
      'fix the flaky test',
    ];
    const env = {
      ...process.env,
      STATE_DIRECTORY: volume,
      DEADMAN_CONFIG: '',
      NOTIFY_SOCKET: '',
      FAKE_AGENT_SCENARIO: scenario,
      FAKE_AGENT_ARGV_LOG: argvLog,
      HOME: outer,
    };
    const [file, ...args] = asRoot
      ? ['setpriv', `--reuid=${POD_UID}`, `--regid=${POD_UID}`, `--groups=${FS_GROUP}`, ...argv]
      : argv;
    return spawnSync(file!, args, { env, cwd: outer, encoding: 'utf8', timeout: 30_000 });
  };
  const stalled = run('silent');
  assert.equal(stalled.status, 75, stalled.stderr);
  const resumed = run('complete');
  assert.equal(resumed.status, 0, resumed.stderr);
  assert.doesNotMatch(resumed.stderr, /not reviving|writable by group/);
  const argvs = readFileSync(argvLog, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as string[]);
  assert.equal(argvs.length, 2);
  assert.equal(argvs[1]![3], 'resume', `the second run resumed: ${JSON.stringify(argvs[1])}`);

  const own = statSync(join(volume, 'private'));
  assert.deepEqual(
    [own.mode & 0o7777, own.uid],
    [0o700, asRoot ? POD_UID : process.geteuid!()],
    "private/ is 0700 and the pod uid's",
  );
  assert.equal(statSync(join(volume, 'private', 'markers')).mode & 0o777, 0o700);
  assert.equal(statSync(join(volume, 'private', 'markers', '.marker-key')).mode & 0o777, 0o600);
  assert.ok(!existsSync(join(volume, 'markers')), 'no markers directory in the shared volume itself');
});
