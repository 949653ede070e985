import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Store } from '../../lib/io/store/store.ts';
import { deadmanBin, runDeadman, runProgram, tempDir } from '../helpers/cli.ts';

interface Setup {
  dir: string;
  out: string;
  config: string;
  database: string;
  /** Runs `deadman check ARGS --config … --database …`, detached from any terminal. */
  check(args: string[]): ReturnType<typeof runDeadman>;
  rows<T>(sql: string): T[];
}

function setup(t: { after(fn: () => void): void }, toml: (out: string) => string): Setup {
  const dir = tempDir(t);
  const out = join(dir, 'out');
  mkdirSync(out);
  const config = join(dir, 'deadman.toml');
  // In its own directory: the store makes its directory private (0700), which would lock out `user`.
  const database = join(dir, 'state', 'deadman.db');
  writeFileSync(config, toml(out));
  return {
    dir,
    out,
    config,
    database,
    check: (args) =>
      runDeadman(['check', ...args, '--config', config, '--database', database], { cwd: dir, detached: true }),
    rows: (sql) => {
      const store = new Store(database);
      try {
        return store.all(sql);
      } finally {
        store.close();
      }
    },
  };
}

const exportJob = (out: string) => `
[jobs.nightly-export]
rerun = ["/bin/sh", "-c", "echo a,b > ${out}/export-2026-09-10.csv"]
[[jobs.nightly-export.evidence]]
name = "export"
kind = "file"
root = "${out}"
glob = "${out}/*.csv"
non_empty = true
max_age = "6h"
`;

const HEALTHY_JOB = `
[jobs.healthy]
rerun = ["/bin/true"]
[[jobs.healthy.evidence]]
kind = "command"
command = ["true"]
`;

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

test('prints a block per job that needs attention and the summary; exit 1', async (t) => {
  const port = await closedPort();
  const s = setup(
    t,
    (out) => `${exportJob(out)}
[jobs.backup]
rerun = ["/usr/local/bin/backup", "--full"]
[[jobs.backup.evidence]]
kind = "file"
root = "${out}"
path = "${out}/backup.tar.gz"
max_age = "1d"
[jobs.queue]
rerun = ["/bin/true"]
[[jobs.queue.evidence]]
kind = "command"
command = ["sleep", "30"]
timeout = "300ms"
[jobs.api]
rerun = ["/bin/true"]
[[jobs.api.evidence]]
kind = "http"
url = "http://127.0.0.1:${port}/health"
${HEALTHY_JOB}`,
  );
  writeFileSync(join(s.out, 'export-2026-09-10.csv'), '');
  writeFileSync(join(s.out, 'backup.tar.gz'), 'x');
  const fourDaysAgo = (Date.now() - 4 * 86_400_000 - 60_000) / 1000;
  utimesSync(join(s.out, 'backup.tar.gz'), fourDaysAgo, fourDaysAgo);

  const result = await s.check([]);
  assert.equal(result.code, 1, result.stderr);
  const lines = result.stdout.trimEnd().split('\n');
  assert.deepEqual(lines.slice(0, 6), [
    'DEAD   nightly-export',
    '       export-2026-09-10.csv is 0 bytes',
    `       fix: /bin/sh -c 'echo a,b > ${s.out}/export-2026-09-10.csv'   (needs approval)`,
    'DEAD   backup',
    '       backup.tar.gz is 4 days stale',
    '       fix: /usr/local/bin/backup --full   (needs approval)',
  ]);
  assert.equal(lines[6], 'UNKNOWN queue');
  assert.match(lines[7]!, /^ {7}sleep timed out after \d+ms$/);
  assert.deepEqual(lines.slice(8), [
    'UNKNOWN api',
    `       GET http://127.0.0.1:${port}/health failed: connection refused`,
    '5 checked | 2 green and dead | 2 unknown | 1 alive',
  ]);
  assert.equal(result.stderr, '');

  const verbose = await s.check(['healthy', 'backup', '-v']);
  assert.equal(verbose.code, 1);
  assert.deepEqual(
    verbose.stdout.split('\n').filter((l) => !l.startsWith(' ')),
    ['DEAD   backup', 'alive  healthy', '2 checked | 1 green and dead | 1 alive', ''],
  );

  const healthy = await s.check(['healthy']);
  assert.deepEqual([healthy.code, healthy.stdout], [0, '1 checked | 0 green and dead | 1 alive\n']);

  const recorded = s.rows<{ job: string; claim: string; verdict: string; reason: string }>(
    'SELECT job, claim, verdict, reason FROM evidence_results ORDER BY id',
  );
  assert.equal(recorded.length, 5 + 2 + 1);
  assert.deepEqual(recorded[0], {
    job: 'nightly-export',
    claim: 'export',
    verdict: 'dead',
    reason: 'export-2026-09-10.csv is 0 bytes',
  });
  assert.deepEqual(recorded[1], {
    job: 'backup',
    claim: 'file-1',
    verdict: 'dead',
    reason: 'backup.tar.gz is 4 days stale',
  });
});

test('--json prints one document', async (t) => {
  const s = setup(t, exportJob);
  writeFileSync(join(s.out, 'export-2026-09-10.csv'), 'a,b\n');
  const result = await s.check(['--json']);
  assert.equal(result.code, 0, result.stderr);
  const doc = JSON.parse(result.stdout);
  assert.deepEqual(doc.summary, { checked: 1, dead: 0, unknown: 0, alive: 1, refused: 0, needs_attention: false });
  assert.deepEqual(doc.jobs[0].claims[0].verdict, 'alive');
  assert.equal(doc.jobs[0].rerun[0], '/bin/sh');
});

test('one job whose claim escapes its root is refused with the reason; every other job is still audited', async (t) => {
  const s = setup(
    t,
    (out) => `${exportJob(out)}
[jobs.sneaky]
rerun = ["/bin/true"]
[[jobs.sneaky.evidence]]
kind = "file"
root = "${out}/export"
path = "${out}/export-secrets/x.csv"
${HEALTHY_JOB}`,
  );
  writeFileSync(join(s.out, 'export-2026-09-10.csv'), '');
  const result = await s.check([]);
  assert.equal(result.code, 78, result.stderr);
  const lines = result.stdout.trimEnd().split('\n');
  assert.equal(lines[0], 'REFUSED sneaky');
  assert.match(
    lines[1]!,
    new RegExp(
      `^ {7}${s.config}: jobs\\.sneaky\\.evidence\\[0\\]\\.path = ".*export-secrets/x\\.csv": .*a claim may only look inside its root$`,
    ),
  );
  assert.equal(lines[2], 'DEAD   nightly-export', "the other jobs' deaths are still reported");
  assert.equal(lines.at(-1), '2 checked | 1 green and dead | 1 alive | 1 refused');
  assert.equal(result.stderr, '');
  const recorded = s.rows<{ job: string; claim: string; verdict: string; reason: string }>(
    'SELECT job, claim, verdict, reason FROM evidence_results ORDER BY id',
  );
  assert.deepEqual(
    recorded.map((r) => [r.job, r.verdict]),
    [
      ['sneaky', 'refused'],
      ['nightly-export', 'dead'],
      ['healthy', 'alive'],
    ],
  );
  assert.match(recorded[0]!.reason, /a claim may only look inside its root/);

  const json = await s.check(['--json']);
  assert.equal(json.code, 78);
  const doc = JSON.parse(json.stdout) as {
    summary: Record<string, unknown>;
    jobs: Array<{ job: string; verdict: string; problems?: string[] }>;
  };
  assert.deepEqual(doc.summary, { checked: 2, dead: 1, unknown: 0, alive: 1, refused: 1, needs_attention: true });
  assert.deepEqual(
    doc.jobs.map((j) => [j.job, j.verdict]),
    [
      ['nightly-export', 'dead'],
      ['healthy', 'alive'],
      ['sneaky', 'refused'],
    ],
  );
  const named = await s.check(['healthy']);
  assert.deepEqual(
    [named.code, named.stdout],
    [0, '1 checked | 0 green and dead | 1 alive\n'],
    'a job named alone is judged alone',
  );

  const flagged = await runDeadman(['config', 'check', '--quiet', '--config', s.config], {
    env: { ...process.env, STATE_DIRECTORY: join(s.dir, 'state') },
  });
  assert.equal(flagged.code, 78);
  assert.match(
    flagged.stdout,
    /^problem: .*jobs\.sneaky\.evidence\[0\]\.path .*a claim may only look inside its root$/m,
    'config check still calls it a problem',
  );
  writeFileSync(s.config, `poll = "1 fortnight"\n${readFileSync(s.config, 'utf8')}`);
  const other = await s.check([]);
  assert.equal(other.code, 78, 'a problem outside the jobs still refuses the whole config');
  assert.equal(other.stdout, '');
});

test('bad command lines are one-line usage errors', async (t) => {
  const s = setup(t, exportJob);
  const unknown = await s.check(['nightly', 'other']);
  assert.deepEqual([unknown.code, unknown.stdout], [64, '']);
  assert.equal(unknown.stderr, 'deadman: unknown job "nightly", "other"; configured jobs: nightly-export\n');
  for (const args of [['--yes'], ['--json', '--fix']]) {
    const refused = await s.check(args);
    assert.equal(refused.code, 64, args.join(' '));
    assert.equal(refused.stderr.trim().split('\n').length, 1, refused.stderr);
  }
  const empty = setup(t, () => 'inactivity = "10min"\n');
  const none = await empty.check([]);
  assert.equal(none.code, 78);
  assert.match(none.stderr, /no jobs to check; add a \[jobs\.NAME\] table/);
});

/** Runs `deadman check --fix` inside a real pseudo-terminal, typing `answer`. */
function checkInTerminal(s: Setup, answer: string) {
  const command = [process.execPath, deadmanBin, 'check', '--fix', '--config', s.config, '--database', s.database].join(
    ' ',
  );
  return runProgram('script', ['-qec', command, '/dev/null'], { cwd: s.dir, input: answer });
}

test('--fix answered n changes nothing and records the refusal', async (t) => {
  const s = setup(t, exportJob);
  const file = join(s.out, 'export-2026-09-10.csv');
  writeFileSync(file, '');
  const before = statSync(file);
  const result = await checkInTerminal(s, 'n\n');
  assert.equal(result.code, 1, result.stdout);
  assert.match(result.stdout, /Approve\? \[y\/N\] .*refused; nothing was changed/s);
  assert.match(result.stdout, /1 checked \| 1 green and dead \| 0 alive/);
  const after = statSync(file);
  assert.deepEqual([after.size, after.mtimeMs, readFileSync(file, 'utf8')], [before.size, before.mtimeMs, '']);
  const [decision] = s.rows<{ job: string; action: string; verdict: string; reason: string; who: string; at: number }>(
    'SELECT * FROM decisions',
  );
  assert.equal(decision?.job, 'nightly-export');
  assert.equal(decision?.action, 'RERUN');
  assert.equal(decision?.verdict, 'REFUSED');
  assert.match(decision!.reason, /refused on the terminal \(export-2026-09-10\.csv is 0 bytes\)/);
  assert.match(decision!.who, /\(uid \d+/);
  assert.ok(Math.abs(decision!.at - Date.now()) < 60_000);
  assert.deepEqual(s.rows('SELECT * FROM actions'), []);
});

test('--fix answered y reruns the job and re-checks it from scratch', async (t) => {
  const s = setup(t, exportJob);
  writeFileSync(join(s.out, 'export-2026-09-10.csv'), '');
  const result = await checkInTerminal(s, 'y\n');
  assert.equal(result.code, 0, result.stdout);
  assert.match(
    result.stdout,
    /rerun exited 0 after \d+m?s\r?\nalive  nightly-export\r?\n1 checked \| 0 green and dead \| 1 alive/,
  );
  assert.equal(readFileSync(join(s.out, 'export-2026-09-10.csv'), 'utf8'), 'a,b\n');
  assert.deepEqual(
    s.rows<{ verdict: string }>('SELECT verdict FROM decisions').map((r) => r.verdict),
    ['APPROVED'],
  );
  const [action] = s.rows<{ kind: string; result: string; target: { argv: string[] } }>('SELECT * FROM actions');
  assert.deepEqual([action?.kind, action?.result, action?.target.argv[0]], ['RERUN', 'exit 0', '/bin/sh']);
  assert.deepEqual(
    s.rows<{ verdict: string }>('SELECT verdict FROM evidence_results ORDER BY id').map((r) => r.verdict),
    ['dead', 'alive'],
  );
});

test('--fix with no terminal refuses unless --yes', async (t) => {
  const s = setup(t, exportJob);
  const file = join(s.out, 'export-2026-09-10.csv');
  writeFileSync(file, '');
  const refused = await s.check(['--fix']);
  assert.equal(refused.code, 1);
  assert.match(refused.stdout, /not fixed: no terminal to ask for approval; pass --yes/);
  assert.equal(readFileSync(file, 'utf8'), '');
  assert.deepEqual(s.rows<{ verdict: string; reason: string }>('SELECT verdict, reason FROM decisions'), [
    { verdict: 'REFUSED', reason: 'no terminal to ask (export-2026-09-10.csv is 0 bytes)' },
  ]);
  const approved = await s.check(['--fix', '--yes']);
  assert.equal(approved.code, 0, approved.stdout);
  assert.match(approved.stdout, /approved with --yes\n {7}rerun exited 0 after .*\nalive  nightly-export\n/);
  assert.equal(readFileSync(file, 'utf8'), 'a,b\n');
});

test(
  "a rerun runs as the job's user in its cwd, and a failing rerun stays DEAD",
  { skip: process.getuid?.() !== 0 && 'needs root to switch users' },
  async (t) => {
    const s = setup(
      t,
      (out) => `
[jobs.as-nobody]
rerun = ["/bin/sh", "-c", "id -un > ${out}/who.txt; pwd >> ${out}/who.txt; echo failing >&2; exit 4"]
user = "nobody"
cwd = "/tmp"
[[jobs.as-nobody.evidence]]
kind = "file"
root = "${out}"
path = "${out}/who.txt"
contains = "^root$"
`,
    );
    chmodSync(s.dir, 0o755);
    chmodSync(s.out, 0o777);
    const result = await s.check(['--fix', '--yes']);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.equal(readFileSync(join(s.out, 'who.txt'), 'utf8'), 'nobody\n/tmp\n');
    assert.match(
      result.stdout,
      /rerun exited 4 after .*\nDEAD   as-nobody\n {7}who\.txt does not contain \/\^root\$\/\n1 checked \| 1 green and dead \| 0 alive\n$/,
    );
    const [action] = s.rows<{ result: string; detail: string }>('SELECT result, detail FROM actions');
    assert.deepEqual(action, { result: 'exit 4', detail: 'stderr:\nfailing\n' });
  },
);

test('evidence that cannot be read is unknown (permission denied), never alive', async (t) => {
  const s = setup(
    t,
    (out) => `
[jobs.private]
rerun = ["/bin/true"]
[[jobs.private.evidence]]
kind = "file"
root = "${out}"
path = "${out}/private/export.csv"
[[jobs.private.evidence]]
kind = "file"
root = "${out}"
glob = "${out}/private/*.csv"
`,
  );
  mkdirSync(join(s.out, 'private'));
  writeFileSync(join(s.out, 'private', 'export.csv'), 'a,b\n');
  chmodSync(join(s.out, 'private'), 0o000);
  const args = [deadmanBin, 'check', '--config', s.config, '--database', s.database];
  let result;
  try {
    if (process.getuid?.() === 0) {
      // root reads anything: drop the capabilities that let it, so mode 000 applies to it too.
      result = await runProgram(
        'setpriv',
        ['--bounding-set=-dac_override,-dac_read_search', '--', process.execPath, ...args],
        { cwd: s.dir },
      );
    } else {
      result = await runProgram(process.execPath, args, { cwd: s.dir });
    }
  } finally {
    chmodSync(join(s.out, 'private'), 0o700); // so the temp dir can be removed
  }
  assert.equal(result.code, 1, result.stderr);
  assert.deepEqual(result.stdout.split('\n'), [
    'UNKNOWN private',
    `       cannot inspect ${s.out}/private/export.csv: permission denied`,
    `       check failed: permission denied (scandir ${s.out}/private)`,
    '1 checked | 0 green and dead | 1 unknown | 0 alive',
    '',
  ]);
});

test('--quiet prints nothing while every job is alive, and the blocks and summary once one is not', async (t) => {
  const s = setup(t, exportJob);
  const file = join(s.out, 'export-2026-09-10.csv');
  writeFileSync(file, 'a,b\n');
  const alive = await s.check(['--quiet']);
  assert.equal(alive.code, 0, alive.stderr);
  assert.equal(alive.stdout + alive.stderr, '');
  writeFileSync(file, '');
  const dead = await s.check(['--quiet']);
  assert.equal(dead.code, 1, dead.stderr);
  assert.match(dead.stdout, /nightly-export/);
  assert.match(dead.stdout.trimEnd().split('\n').at(-1)!, /1 green and dead/);
  const both = await s.check(['--quiet', '--verbose']);
  assert.equal(both.code, 64, both.stderr);
});
