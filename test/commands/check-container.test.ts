import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { evidencePlace } from '../../lib/io/evidence/evidence-place.ts';
import { configSchema } from '../../lib/core/config/config.ts';
import { repoRoot, runDeadman, tempDir } from '../helpers/cli.ts';
import { skipReason, skipUnlessInstalled } from '../helpers/required-tool.ts';

/**
 * `container = "NAME"` with real podman: a job's files are judged inside its container — a file
 * only there is found, a file only on the host is not — with the container's default user, its
 * paths in the path scope and its clock; a container that is not running, or not there, gives
 * unknown. The base image is contrib/container/base-image.sh's, the one contrib/container/test.sh
 * (test/deploy/container.test.ts) builds its image on: made here only when missing, and then
 * reused there. .ci/run (root, podman installed) makes a skip a failure.
 */

const work = join(process.env.TMPDIR ?? '/tmp', 'deadman-container');
const env = { ...process.env, CONTAINERS_CONF: join(work, 'containers.conf') };
const BASE = 'localhost/deadman-base:bookworm';
const skip = process.geteuid?.() === 0 ? skipUnlessInstalled('podman') : skipReason('needs root (podman with runc)');
const podman = (...args: string[]) =>
  spawnSync('podman', ['--runtime', 'runc', ...args], { encoding: 'utf8', env, timeout: 120_000 });

function podmanOk(...args: string[]): string {
  const ran = podman(...args);
  assert.equal(ran.status, 0, `podman ${args.join(' ')}: ${ran.stdout}${ran.stderr}${ran.error ?? ''}`);
  return ran.stdout;
}

// A fresh base is a debootstrap (see test/deploy/container.test.ts for its bound); present, it costs nothing.
test(
  'a container job is judged inside its container, with its user, paths and clock',
  { skip, timeout: 1_500_000 },
  async (t) => {
    const base = spawnSync('bash', [join(repoRoot, 'contrib', 'container', 'base-image.sh')], {
      encoding: 'utf8',
      env: { ...env, DEADMAN_CONTAINER_WORK: work },
      timeout: 1_200_000,
    });
    assert.equal(base.status, 0, `${base.stdout}${base.stderr}`);

    const suffix = `${process.pid}-${randomBytes(3).toString('hex')}`;
    const running = `deadman-evidence-${suffix}`;
    const created = `deadman-evidence-created-${suffix}`;
    t.after(() => {
      for (const name of [running, created]) podman('rm', '--force', '--time', '0', '--ignore', name);
    });
    // Not root inside: deadman's exec must run as this default user, never as root.
    podmanOk(
      'run',
      '--detach',
      '--name',
      running,
      '--user',
      '65534:65534',
      '--env',
      'TZ=UTC-05:30',
      BASE,
      'sleep',
      'infinity',
    );
    podmanOk('create', '--name', created, BASE, 'sleep', 'infinity');
    podmanOk(
      'exec',
      '--user',
      '0',
      running,
      'sh',
      '-c',
      [
        'mkdir -p /data/out /data/locked /data/elsewhere',
        'printf "id,total\\n1,10\\n2,20\\n" > /data/out/inside.csv',
        'printf "old\\n" > /data/out/old.csv && touch -d "3 hours ago" /data/out/old.csv',
        'printf "secret\\n" > /data/elsewhere/x.csv && ln -s /data/elsewhere/x.csv /data/out/escape.csv',
        'printf "x\\n" > /data/locked/f.csv && chmod 700 /data/locked',
      ].join(' && '),
    );

    // The same paths on the host hold other files: the host-only one must not count in the container.
    const dir = tempDir(t);
    const hostOut = join(dir, 'out');
    mkdirSync(hostOut);
    writeFileSync(join(hostOut, 'host-only.csv'), 'id\n1\n');
    const fileClaim = (root: string, where: string, extra = '') =>
      `[[jobs.JOB.evidence]]\nkind = "file"\nroot = "${root}"\n${where}\n${extra}\n`;
    const job = (name: string, container: string | null, claims: string[], keys = '') =>
      `[jobs.${name}]\nrerun = ["/bin/true"]\n${container === null ? '' : `container = "${container}"\n`}${keys}${claims.join('').replaceAll('JOB', name)}`;
    const config = join(dir, 'deadman.toml');
    writeFileSync(
      config,
      [
        job('inside', running, [
          fileClaim(
            '/data/out',
            'path = "/data/out/inside.csv"',
            'non_empty = true\nmax_age = "1h"\nmin_lines = 3\ncontains = "^2,20$"',
          ),
          fileClaim('/data/out', 'glob = "/data/out/*.csv"', 'max_age = "1h"'),
        ]),
        job('host-only', running, [fileClaim(hostOut, `path = "${hostOut}/host-only.csv"`)]),
        job('host-control', null, [fileClaim(hostOut, `path = "${hostOut}/host-only.csv"`)]),
        job('stale', running, [fileClaim('/data/out', 'path = "/data/out/old.csv"', 'max_age = "1h"')]),
        job('escape', running, [fileClaim('/data/out', 'path = "/data/out/escape.csv"')]),
        job('locked', running, [fileClaim('/data/locked', 'path = "/data/locked/f.csv"')]),
        job('stopped', created, [
          fileClaim('/data/out', 'path = "/data/out/inside.csv"'),
          fileClaim('/data/out', 'glob = "/data/out/*.csv"'),
        ]),
        job('gone', `deadman-evidence-none-${suffix}`, [fileClaim('/data/out', 'path = "/data/out/inside.csv"')]),
        // The configured engine only: docker is not on PATH in CI, and has no daemon here; podman is not asked.
        job('docker', running, [fileClaim('/data/out', 'path = "/data/out/inside.csv"')], 'engine = "docker"\n'),
      ].join('\n'),
    );

    const started = performance.now();
    const result = await runDeadman(
      ['check', '--json', '--config', config, '--database', join(dir, 'state', 'deadman.db')],
      { cwd: dir, env },
    );
    assert.notEqual(result.stdout, '', result.stderr);
    t.diagnostic(
      `deadman check of 9 jobs (7 container jobs, 10 claims): ${Math.round(performance.now() - started)} ms`,
    );
    const document = JSON.parse(result.stdout) as {
      jobs: Array<{ job: string; verdict: string; claims: Array<{ reason: string }> }>;
    };
    const verdicts = Object.fromEntries(
      document.jobs.map((j) => [j.job, { verdict: j.verdict, reasons: j.claims.map((c) => c.reason) }]),
    );
    const expect = (name: string, verdict: string, reason: RegExp) => {
      assert.equal(verdicts[name]?.verdict, verdict, `${name}: ${JSON.stringify(verdicts[name])}\n${result.stderr}`);
      for (const said of verdicts[name]!.reasons) assert.match(said, reason, name);
    };
    expect('inside', 'alive', /^inside\.csv: \d+ bytes, modified/);
    expect('host-only', 'dead', /host-only\.csv does not exist/);
    expect('host-control', 'alive', /^host-only\.csv: 5 bytes/);
    expect('stale', 'dead', /^old\.csv is (2 hours \d+ minutes|3 hours) stale/);
    expect('escape', 'dead', /escape\.csv resolves to \/data\/elsewhere\/x\.csv, outside root \/data\/out/);
    expect('locked', 'unknown', /permission denied/);
    expect('stopped', 'unknown', new RegExp(`^container ${created} is created \\(podman\\), not running`));
    expect('gone', 'unknown', /^container deadman-evidence-none-\S+ cannot be reached: podman: .*no such container/i);
    expect('docker', 'unknown', new RegExp(`^container ${running} cannot be reached: docker: [^;]+$`));
    assert.equal(result.code, 1, result.stderr);

    // The text report gives an unreachable container's reason once, not once per claim.
    const text = await runDeadman(
      ['check', 'stopped', '--config', config, '--database', join(dir, 'state', 'deadman.db')],
      { cwd: dir, env },
    );
    assert.equal(text.stdout.split('\n').filter((line) => line.includes('not running')).length, 1, text.stdout);

    // The clock is read there: its time and its zone (TZ=UTC-05:30 is 5 h 30 min east).
    const parsed = configSchema.parse({
      jobs: {
        clock: {
          rerun: ['/bin/true'],
          container: running,
          evidence: [{ kind: 'file', root: '/data', path: '/data/out/inside.csv' }],
        },
      },
    });
    const place = await evidencePlace(parsed.jobs.clock!, () => Date.now());
    assert.ok(!('unreachable' in place), JSON.stringify(place));
    assert.equal(place.timeZone, '+05:30');
    assert.ok(Math.abs(place.now() - Date.now()) < 5_000, "the container shares the host kernel's clock");
  },
);
