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
 * the Kubernetes example's flags, probe and paths, in the image it built. Needs root and podman
 * (.ci/run installs podman, runc and debootstrap); its timeline goes to the test's output.
 * DEADMAN_CONTAINER_AGENTS (test.sh) builds with other agents, or none when empty.
 */
const IMAGE = 'localhost/deadman-agent:test';
const skip = process.geteuid?.() === 0 ? skipUnlessInstalled('podman') : 'needs root (podman with runc)';
const podman = (...args: string[]) =>
  spawnSync('podman', ['--runtime', 'runc', ...args], {
    encoding: 'utf8',
    env: {
      ...process.env,
      CONTAINERS_CONF: join(process.env.TMPDIR ?? '/tmp', 'deadman-container', 'containers.conf'),
    },
  });

// A fresh base is a debootstrap from Debian's archive: 1-3 min on a quiet host, 400 s was seen on a busy one. The
// bound only keeps a wedged build from holding CI; CI has 90 minutes.
test(
  'the image builds, and a stalled run in it is restarted and resumed to exit 0 (contrib/container/test.sh)',
  { skip, timeout: 1_220_000 },
  (t) => {
    const started = performance.now();
    const run = spawnSync('bash', [join(repoRoot, 'contrib', 'container', 'test.sh')], {
      encoding: 'utf8',
      timeout: 1_200_000,
    });
    t.diagnostic(
      `contrib/container/test.sh, ${Math.round((performance.now() - started) / 1000)} s:\n${run.stdout}${run.stderr}`,
    );
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.match(
      run.stdout,
      /PASS: stall → exit 75 → restart → session \S+ resumed → exit 0; health: healthy unhealthy healthy/,
    );
    if (process.env.DEADMAN_CONTAINER_AGENTS === undefined) {
      assert.match(run.stdout, /image: codex codex-cli/, 'the default image has Codex');
      assert.match(run.stdout, /image: claude .*Claude Code/, 'the default image has Claude Code');
    }

    // The Kubernetes example in this image: the Job's own deadman flags start a run whose --health-listen answers the probe's path with 200.
    const { job } = manifest();
    const agent = job.spec!.template.spec!.containers[0]!;
    const flags = agent.args!.slice(0, agent.args!.indexOf('--'));
    const probe = agent.livenessProbe!.httpGet!;
    const port = agent.ports!.find((p) => p.name === probe.port)!.containerPort;
    const asks = `setTimeout(async () => { const r = await fetch('http://127.0.0.1:${port}${probe.path}'); process.exit(r.status === 200 ? 0 : 1); }, 3000)`;
    const probed = podman('run', '--rm', '--no-healthcheck', IMAGE, ...flags, '--quiet', '--', 'node', '-e', asks);
    assert.equal(probed.status, 0, `the probe in the image: ${probed.stdout}${probed.stderr}`);
    assert.equal(
      `${probed.stdout}${probed.stderr}`.trim(),
      '',
      'the run is quiet, and its flags raise no usage complaint',
    );
    const mounts = agent.volumeMounts!.map((m) => m.mountPath);
    const paths = podman(
      'run',
      '--rm',
      '--no-healthcheck',
      '--user',
      String(job.spec!.template.spec!.securityContext!.runAsUser),
      IMAGE,
      'sh',
      '-c',
      `cd ${agent.workingDir} && for dir in ${mounts.join(' ')}; do test -d "$dir" || echo "missing $dir"; done; deadman --version`,
    );
    assert.equal(paths.status, 0, `${paths.stdout}${paths.stderr}`);
    assert.doesNotMatch(paths.stdout, /missing/);
  },
);
