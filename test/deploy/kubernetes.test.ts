import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import TOML from '@iarna/toml';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { CronJob } from 'kubernetes-models/batch/v1/CronJob';
import type { IPodFailurePolicyRule } from 'kubernetes-models/batch/v1/PodFailurePolicyRule';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { configSchema } from '../../lib/core/config/config.ts';
import { parseRunArgs } from '../../lib/commands/run/run-options.ts';
import { ExitCode, NO_RESTART_CODES } from '../../lib/exit-codes.ts';
import { repoRoot } from '../helpers/cli.ts';
import { checkManifest, manifest } from '../helpers/kubernetes-manifest.ts';

/**
 * contrib/kubernetes/ as people run it: the Job of one agent task and the CronJob of `deadman
 * check`, valid against the Kubernetes API schema (kubernetes-models, generated from Kubernetes'
 * OpenAPI spec). The Job's podFailurePolicy is the "Kubernetes Job" column of docs/exit-codes.md,
 * code by code; its probe is the run's own --health-listen. The probe's port and the paths match
 * contrib/Dockerfile here; test/deploy/container.test.ts runs them in the image.
 */

type Action = IPodFailurePolicyRule['action'] | '—';

/** docs/exit-codes.md's first table: each code a row names (ranges apart) → its Kubernetes Job action. */
function documentedActions(): { codes: Map<number, Action>; childRange: Action; signalRange: Action } {
  const text = readFileSync(join(repoRoot, 'docs', 'exit-codes.md'), 'utf8');
  const rows = text
    .split('\n## ')[0]!
    .split('\n')
    .filter((line) => line.startsWith('| '))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  const header = rows[0]!;
  const column = header.indexOf('Kubernetes Job');
  assert.notEqual(column, -1, 'docs/exit-codes.md has a "Kubernetes Job" column');
  const codes = new Map<number, Action>();
  let childRange: Action | undefined;
  let signalRange: Action | undefined;
  for (const row of rows.slice(1)) {
    const [code, action] = [row[0]!, row[column] as Action];
    assert.ok(['FailJob', 'Ignore', 'Count', '—'].includes(action), `row ${code}: "${action}"`);
    if (code === '0–125') childRange = action;
    else if (code === '128+N') signalRange = action;
    else for (const one of code.split(' / ')) codes.set(Number(one), action);
  }
  assert.ok(
    childRange && signalRange && ![...codes.keys()].some(Number.isNaN),
    'every row is a code, a pair, 0–125 or 128+N',
  );
  return { codes, childRange, signalRange };
}

/** What Kubernetes does with a pod whose container `container` ended with `code`: the first rule that matches, else Count. */
function podFailureAction(rules: readonly IPodFailurePolicyRule[], container: string, code: number): Action {
  for (const rule of rules) {
    const on = rule.onExitCodes;
    if (!on || (on.containerName !== undefined && on.containerName !== container)) continue;
    if (on.operator === 'In' ? on.values.includes(code) : !on.values.includes(code)) return rule.action;
  }
  return 'Count';
}

test('the manifests are valid against the Kubernetes API schema (and the check can fail)', () => {
  const { claim, job } = manifest();
  new PersistentVolumeClaim(claim).validate();
  new Job(job).validate();
  const { config, cronJob } = checkManifest();
  new ConfigMap(config).validate();
  new CronJob(cronJob).validate();
  const broken = structuredClone(job);
  broken.spec!.template.spec!.containers[0]!.livenessProbe!.timeoutSeconds = '10s' as never;
  assert.throws(() => new Job(broken).validate(), /timeoutSeconds must be integer/);
  const brokenPolicy = structuredClone(job);
  brokenPolicy.spec!.podFailurePolicy!.rules[0]!.action = 'Retry' as never;
  assert.throws(() => new Job(brokenPolicy).validate(), /action must be equal to one of the allowed values/);
});

test('every documented exit code gets its podFailurePolicy action, and every code deadman has is documented', () => {
  const { job } = manifest();
  const rules = job.spec!.podFailurePolicy!.rules;
  const agent = job.spec!.template.spec!.containers[0]!.name;
  const { codes, childRange, signalRange } = documentedActions();
  for (const code of Object.values(ExitCode)) assert.ok(codes.has(code), `docs/exit-codes.md has a row for ${code}`);
  assert.equal(codes.get(ExitCode.OK), '—', 'exit 0 is a success: no policy applies');
  for (const [code, action] of codes) {
    if (code !== ExitCode.OK) assert.equal(podFailureAction(rules, agent, code), action, `exit ${code}`);
  }
  for (let code = 1; code <= 255; code++) {
    if (codes.has(code)) continue;
    assert.equal(
      podFailureAction(rules, agent, code),
      code < 126 ? childRange : signalRange,
      `exit ${code} (the child's own)`,
    );
  }
  // The two contracts say the same: what systemd must not restart, Kubernetes fails at once.
  for (const code of NO_RESTART_CODES) assert.equal(codes.get(code), 'FailJob', `exit ${code}`);
  assert.equal(
    codes.get(ExitCode.STALLED_RESTART),
    'Ignore',
    'a stall is bounded by the revive budget, not backoffLimit',
  );
  assert.ok(
    rules.some((rule) => rule.action === 'Ignore' && rule.onPodConditions?.some((c) => c.type === 'DisruptionTarget')),
    "a drained node is not the task's failure",
  );
});

test("the Job: a new pod per start (Never), a deadline, resources, the state and work on the claim, an httpGet probe on the run's --health-listen", () => {
  const { claim, job } = manifest();
  const pod = job.spec!.template.spec!;
  const [agent] = pod.containers;
  assert.equal(pod.restartPolicy, 'Never', 'podFailurePolicy needs restartPolicy Never');
  assert.ok(Number.isInteger(job.spec!.backoffLimit) && job.spec!.backoffLimit! >= 1, 'backoffLimit');
  assert.ok(
    Number.isInteger(job.spec!.activeDeadlineSeconds) && job.spec!.activeDeadlineSeconds! > 0,
    'activeDeadlineSeconds',
  );
  assert.ok(
    agent!.resources?.requests?.cpu && agent!.resources.requests.memory && agent!.resources.limits?.memory,
    'CPU and memory requests, a memory limit',
  );
  assert.equal(agent!.resources.limits.cpu, undefined, 'no CPU limit: a throttled tree looks idle');
  assert.ok(Number.isInteger(pod.securityContext?.fsGroup), 'securityContext.fsGroup');

  const stateDir = agent!.env!.find((e) => e.name === 'STATE_DIRECTORY')!.value!;
  for (const path of [stateDir, agent!.workingDir!]) {
    const mount = agent!.volumeMounts!.find((m) => m.mountPath === path)!;
    assert.ok(mount, `a volume is mounted at ${path}`);
    assert.equal(
      pod.volumes!.find((v) => v.name === mount.name)!.persistentVolumeClaim!.claimName,
      claim.metadata!.name,
      `${path} outlives the pod`,
    );
  }

  const args = agent!.args!;
  assert.deepEqual(args.slice(0, 2), ['deadman', 'run']);
  const { values } = parseRunArgs(args.slice(2));
  const runName = values.name;
  assert.equal(
    agent!.env!.find((e) => e.name === 'DEADMAN_NAME')?.value,
    runName,
    "the image's HEALTHCHECK judges the run the Job starts",
  );
  const listen = String(values['health-listen']);
  assert.equal(values['health-public'], true, `${listen} is the pod's address: the kubelet probes it`);
  const probe = agent!.livenessProbe!;
  const port = agent!.ports!.find((p) => p.name === probe.httpGet!.port)!;
  assert.equal(String(port.containerPort), listen.split(':').at(-1), 'the probe asks the port deadman listens on');
  assert.ok(probe.timeoutSeconds! >= 5, 'timeoutSeconds leaves room for a loaded node (the default is 1 s)');
});

test("the CronJob runs deadman check --quiet on the ConfigMap's config, which deadman accepts, once per schedule", () => {
  const { config, cronJob } = checkManifest();
  const spec = cronJob.spec!.jobTemplate.spec!;
  const pod = spec.template.spec!;
  const [check] = pod.containers;
  assert.equal(cronJob.spec!.concurrencyPolicy, 'Forbid');
  assert.equal(spec.backoffLimit, 0, 'a verdict does not change by asking again');
  assert.equal(pod.restartPolicy, 'Never');
  assert.deepEqual(check!.args!.slice(0, 3), ['deadman', 'check', '--quiet']);
  const configPath = check!.args![check!.args!.indexOf('--config') + 1]!;
  const mount = check!.volumeMounts!.find((m) => configPath.startsWith(`${m.mountPath}/`))!;
  assert.equal(pod.volumes!.find((v) => v.name === mount.name)!.configMap!.name, config.metadata!.name);
  const file = configPath.slice(mount.mountPath.length + 1);
  const parsed = configSchema.safeParse(TOML.parse(config.data![file]!));
  assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
  assert.ok(Object.keys(parsed.data.jobs).length > 0, 'a job to check');
});

test('the probe port and the paths the manifest uses are where contrib/Dockerfile puts them', () => {
  const { job } = manifest();
  const agent = job.spec!.template.spec!.containers[0]!;
  const dockerfile = readFileSync(join(repoRoot, 'contrib', 'Dockerfile'), 'utf8');
  assert.match(
    dockerfile,
    /ln -s \/opt\/deadman\/bin\/deadman\.js \/usr\/local\/bin\/deadman/,
    "deadman on the image's PATH",
  );
  const stateDir = agent.env!.find((e) => e.name === 'STATE_DIRECTORY')!.value!;
  assert.match(dockerfile, new RegExp(`^VOLUME ${stateDir}$`, 'm'));
  assert.match(dockerfile, new RegExp(`^ENV STATE_DIRECTORY=${stateDir}$`, 'm'));
  assert.match(dockerfile, new RegExp(`^WORKDIR ${agent.workingDir}$`, 'm'));
});
