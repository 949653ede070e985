import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../helpers/cli.ts';
import { skipUnlessInstalled } from '../helpers/required-tool.ts';
import { manifest } from '../helpers/kubernetes-manifest.ts';

/**
 * contrib/container/test.sh: contrib/Dockerfile built with podman and the revive scenario run in
 * it (stall → exit 75 → restart → resume → exit 0, health healthy → unhealthy → healthy). Then
 * the Kubernetes example's probe and paths, in the image it built. Needs root and podman
 * (.ci/run installs podman, runc and debootstrap); its timeline goes to the test's output.
 * DEADMAN_CONTAINER_AGENTS (test.sh) builds with other agents, or none when empty.
 */
const IMAGE = 'localhost/deadman-agent:test';
const skip = process.geteuid?.() === 0 ? skipUnlessInstalled('podman') : 'needs root (podman with runc)';
const podman = (...args: string[]) => spawnSync('podman', ['--runtime', 'runc', ...args], {
  encoding: 'utf8', env: { ...process.env, CONTAINERS_CONF: join(process.env.TMPDIR ?? '/tmp', 'deadman-container', 'containers.conf') },
});

test('the image builds, and a stalled run in it is restarted and resumed to exit 0 (contrib/container/test.sh)', { skip, timeout: 420_000 }, (t) => {
  const started = performance.now();
  const run = spawnSync('bash', [join(repoRoot, 'contrib', 'container', 'test.sh')], { encoding: 'utf8', timeout: 400_000 });
  t.diagnostic(`contrib/container/test.sh, ${Math.round((performance.now() - started) / 1000)} s:\n${run.stdout}${run.stderr}`);
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  assert.match(run.stdout, /PASS: stall → exit 75 → restart → session \S+ resumed → exit 0; health: healthy unhealthy healthy/);
  if (process.env.DEADMAN_CONTAINER_AGENTS === undefined) {
    assert.match(run.stdout, /image: codex codex-cli/, 'the default image has Codex');
    assert.match(run.stdout, /image: claude .*Claude Code/, 'the default image has Claude Code');
  }

  // The Kubernetes example in this image: its probe runs and finds no such run yet (64, quietly: not 127, and no usage complaint) and its paths are there.
  const { job } = manifest();
  const agent = job.spec!.template.spec!.containers[0]!;
  const probe = podman('run', '--rm', '--no-healthcheck', IMAGE, ...agent.livenessProbe!.exec!.command!);
  assert.equal(probe.status, 64, `the probe in the image: ${probe.stdout}${probe.stderr}`);
  assert.equal(`${probe.stdout}${probe.stderr}`.trim(), '', 'the probe is quiet, and its words raise no usage complaint');
  const mounts = agent.volumeMounts!.map((m) => m.mountPath);
  const paths = podman('run', '--rm', '--no-healthcheck', '--user', String(job.spec!.template.spec!.securityContext!.runAsUser), IMAGE,
    'sh', '-c', `cd ${agent.workingDir} && for dir in ${mounts.join(' ')}; do test -d "$dir" || echo "missing $dir"; done; deadman --version`);
  assert.equal(paths.status, 0, `${paths.stdout}${paths.stderr}`);
  assert.doesNotMatch(paths.stdout, /missing/);
});
