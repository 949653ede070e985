import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { repoRoot } from '../helpers/cli.ts';
import { manifest } from '../helpers/kubernetes-manifest.ts';

/**
 * contrib/kubernetes/deadman-job.yaml as people run a one-shot agent task: valid against the
 * Kubernetes API schema (kubernetes-models, generated from Kubernetes' OpenAPI spec), a Job
 * that restarts on failure, the state on a PersistentVolumeClaim mounted with fsGroup, and a
 * liveness probe with a timeout that names the run the Job starts. The probe's command and the
 * paths match contrib/Dockerfile here; test/deploy/container.test.ts runs them in the image.
 */
test('the manifest is valid against the Kubernetes API schema (and the check can fail)', () => {
  const { claim, job } = manifest();
  new PersistentVolumeClaim(claim).validate();
  new Job(job).validate();
  const broken = structuredClone(job);
  broken.spec!.template.spec!.containers[0]!.livenessProbe!.timeoutSeconds = '10s' as never;
  assert.throws(() => new Job(broken).validate(), /timeoutSeconds must be integer/);
});

test('a Job that restarts on failure, its state on the claim under fsGroup, a probe with a timeout for the run it starts', () => {
  const { claim, job } = manifest();
  const pod = job.spec!.template.spec!;
  const [agent] = pod.containers;
  assert.equal(pod.restartPolicy, 'OnFailure');
  assert.ok(Number.isInteger(job.spec!.backoffLimit) && job.spec!.backoffLimit! >= 1, 'backoffLimit');
  assert.ok(Number.isInteger(pod.securityContext?.fsGroup), 'securityContext.fsGroup');

  const stateDir = agent!.env!.find((e) => e.name === 'STATE_DIRECTORY')!.value!;
  const mount = agent!.volumeMounts!.find((m) => m.mountPath === stateDir)!;
  assert.ok(mount, `a volume is mounted at STATE_DIRECTORY ${stateDir}`);
  assert.equal(pod.volumes!.find((v) => v.name === mount.name)!.persistentVolumeClaim!.claimName, claim.metadata!.name);

  const probe = agent!.livenessProbe!;
  assert.ok(probe.timeoutSeconds! >= 5, 'timeoutSeconds leaves room for a loaded node (the default is 1 s)');
  const command = probe.exec!.command!;
  assert.deepEqual(command.slice(0, 2), ['deadman', 'health']);
  const runName = agent!.args![agent!.args!.indexOf('--name') + 1];
  assert.equal(command[command.indexOf('--name') + 1], runName, 'the probe judges the run the Job starts');
  assert.equal(agent!.env!.find((e) => e.name === 'DEADMAN_NAME')?.value, runName, 'the image\'s HEALTHCHECK judges it too');
});

test('the probe command and the paths the manifest uses are where contrib/Dockerfile puts them', () => {
  const { job } = manifest();
  const agent = job.spec!.template.spec!.containers[0]!;
  const dockerfile = readFileSync(join(repoRoot, 'contrib', 'Dockerfile'), 'utf8');
  assert.match(dockerfile, /ln -s \/opt\/deadman\/bin\/deadman\.js \/usr\/local\/bin\/deadman/, 'deadman on the image\'s PATH');
  const stateDir = agent.env!.find((e) => e.name === 'STATE_DIRECTORY')!.value!;
  assert.match(dockerfile, new RegExp(`^VOLUME ${stateDir}$`, 'm'));
  assert.match(dockerfile, new RegExp(`^ENV STATE_DIRECTORY=${stateDir}$`, 'm'));
  assert.match(dockerfile, new RegExp(`^WORKDIR ${agent.workingDir}$`, 'm'));
});
