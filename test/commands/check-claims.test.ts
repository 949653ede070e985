import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';

/**
 * The green-but-dead seed's four jobs written only as English claims, checked by a real
 * `deadman check` against real files; and a claim the reader refuses, planned by a fake
 * diagnostician command, approved, pinned, and used without it.
 */

function seed(t: { after(fn: () => void): void }, extra = '') {
  const dir = tempDir(t);
  for (const sub of ['out/export', 'backups', 'reports', 'spool', 'state'])
    mkdirSync(join(dir, sub), { recursive: true });
  const config = join(dir, 'deadman.toml');
  writeFileSync(
    config,
    `
[jobs.nightly-export]
rerun = ["/bin/nightly-export"]
claim = "a non-empty CSV under ${dir}/out/export, modified in the last 6 hours"
[jobs.backup]
rerun = ["/usr/local/bin/backup", "--full"]
claim = "backup.tar.gz in ${dir}/backups, at least 1 KB, written within 1 day"
[jobs.daily-report]
rerun = ["/usr/local/bin/report"]
claim = "a report at ${dir}/reports/report.csv with a header \\"day,total\\" and more than 1 line, from today"
[jobs.queue-drain]
rerun = ["/usr/local/bin/drain"]
claim = "no files left in ${dir}/spool"
${extra}`,
  );
  writeFileSync(join(dir, 'out/export/export-2026-12-07.csv'), '');
  writeFileSync(join(dir, 'backups/backup.tar.gz'), Buffer.alloc(4096));
  const fourDaysAgo = (Date.now() - 4 * 86_400_000) / 1000;
  utimesSync(join(dir, 'backups/backup.tar.gz'), fourDaysAgo, fourDaysAgo);
  writeFileSync(join(dir, 'reports/report.csv'), 'day,total\n2026-12-07,3\n');
  const check = (args: string[]) =>
    runDeadman(['check', ...args, '--config', config, '--database', join(dir, 'state', 'deadman.db')], {
      cwd: dir,
      detached: true,
      env: { ...process.env, TZ: 'UTC' },
    });
  return { dir, check };
}

test("the seed's four jobs as English claims: 2 green and dead, 2 alive, exit 1; --explain shows each plan", async (t) => {
  const s = seed(t);
  const result = await s.check([]);
  assert.equal(result.code, 1, result.stderr);
  assert.deepEqual(result.stdout.trimEnd().split('\n'), [
    'DEAD   nightly-export',
    '       export-2026-12-07.csv is 0 bytes',
    '       fix: /bin/nightly-export   (needs approval)',
    'DEAD   backup',
    '       backup.tar.gz is 4 days stale',
    '       fix: /usr/local/bin/backup --full   (needs approval)',
    '4 checked | 2 green and dead | 2 alive',
  ]);
  const explain = await s.check(['--explain']);
  assert.equal(explain.code, 0, explain.stderr);
  assert.match(
    explain.stdout,
    new RegExp(
      `^nightly-export\\n  claim: a non-empty CSV under ${s.dir}/out/export, modified in the last 6 hours\\n  read by deadman as:\\n    \\[\\[jobs.nightly-export.evidence\\]\\]\\n    name = "claim"\\n    kind = "file"\\n    root = "${s.dir}/out/export"\\n    glob = "${s.dir}/out/export/\\*.csv"\\n    non_empty = true\\n    max_age = "6h"\\n`,
    ),
  );
  for (const line of [
    'min_bytes = 1000',
    'max_age = "1d"',
    'modified_today = true',
    'header = "day,total"',
    'min_lines = 2',
    'max_count = 0',
  ])
    assert.ok(explain.stdout.includes(line), line);
  writeFileSync(join(s.dir, 'spool', 'left-over.msg'), 'x');
  const drained = await s.check(['queue-drain']);
  assert.deepEqual(
    [drained.code, drained.stdout.split('\n')[1]],
    [1, `       1 file left matching ${s.dir}/spool/* (expected none)`],
  );
});

test("a refused claim: unknown with the approve command; the fake diagnostician's plan, once approved, is used without it", async (t) => {
  const probe = tempDir(t);
  const asked = join(probe, 'asked');
  // The fake diagnostician appends a line for each question and answers a plan for the spreadsheet claim.
  const fake = join(probe, 'fake-diagnostician.sh');
  writeFileSync(
    fake,
    `#!/bin/sh\ncat >/dev/null; echo asked >> ${asked}\necho '{"claims":[{"kind":"file","root":"${probe}","glob":"${probe}/*.xlsx","non_empty":true}]}'\n`,
    { mode: 0o755 },
  );
  const s = seed(
    t,
    `[jobs.sheet]\nrerun = ["/bin/true"]\nclaim = "a spreadsheet in ${probe}"\n[diagnose]\ndiagnostician = "command"\ncommand = ["${fake}"]\n`,
  );
  writeFileSync(join(probe, 'sheet.xlsx'), 'cells');

  const first = await s.check(['sheet']);
  assert.equal(first.code, 1, first.stderr);
  const lines = first.stdout.trimEnd().split('\n');
  assert.equal(lines[0], 'UNKNOWN sheet');
  assert.equal(
    lines[1],
    '       claim not read: does not understand "spreadsheet" (nearest word it knows: "snapshot"); no approved plan yet (deadman check --approve-plan sheet)',
  );
  assert.equal(
    lines[2],
    '       proposed plan (from the diagnostician; not used until approved: deadman check --approve-plan sheet):',
  );
  assert.equal(lines.at(-1), '1 checked | 0 green and dead | 1 unknown | 0 alive');
  await s.check(['sheet']);
  assert.equal(
    readdirSync(probe).includes('asked') && (await import('node:fs')).readFileSync(asked, 'utf8'),
    'asked\n',
    'asked once, the proposal kept',
  );

  const refused = await s.check(['--approve-plan', 'sheet']);
  assert.equal(refused.code, 1);
  assert.match(refused.stdout, /not approved: no terminal to ask; pass --yes to approve without asking\n$/);
  const approved = await s.check(['--approve-plan', 'sheet', '--yes']);
  assert.equal(approved.code, 0, approved.stderr);
  assert.match(approved.stdout, /approved and pinned: .*claim-plans\/[0-9a-f]{64}\.approved\.json\n$/);

  writeFileSync(fake, '#!/bin/sh\nexit 3\n');
  const pinned = await s.check(['sheet', '-v']);
  assert.deepEqual([pinned.code, pinned.stdout], [0, 'alive  sheet\n1 checked | 0 green and dead | 1 alive\n']);
  const others = await s.check([]);
  assert.match(others.stdout, /5 checked \| 2 green and dead \| 3 alive\n$/, 'no other job is affected');

  const edited = seed(
    t,
    `[jobs.sheet]\nrerun = ["/bin/true"]\nclaim = "a spreadsheet in ${probe}, today"\n[diagnose]\ndiagnostician = "command"\ncommand = ["${fake}"]\n`,
  );
  const again = await edited.check(['sheet']);
  assert.equal(again.stdout.split('\n')[0], 'UNKNOWN sheet', 'an edited claim needs a new approval');
  assert.match(again.stdout, /the diagnostician proposed no usable plan: it exited 3/);
});

test('bad input: no claim to approve is a usage error (64); a refused [[evidence]] claim is a config error (78)', async (t) => {
  const s = seed(t);
  const none = await s.check(['--approve-plan', 'backup']);
  assert.deepEqual(
    [none.code, none.stdout],
    [0, 'deadman reads this claim itself; there is nothing to approve (deadman check --explain backup)\n'],
  );
  const noClaim = seed(
    t,
    '[jobs.plain]\nrerun = ["/bin/true"]\n[[jobs.plain.evidence]]\nkind = "command"\ncommand = ["true"]\n',
  );
  const usage = await noClaim.check(['--approve-plan', 'plain']);
  assert.deepEqual(
    [usage.code, usage.stderr.trim()],
    [64, 'deadman: job "plain" has no claim = "…" to approve a plan for'],
  );
  const dir = tempDir(t);
  const config = join(dir, 'run.toml');
  writeFileSync(config, '[[evidence]]\nclaim = "a spreadsheet under /tmp"\n');
  const run = await runDeadman(['config', 'check', '--config', config, '--quiet']);
  assert.equal(run.code, 78);
  assert.equal(
    run.stdout,
    `problem: ${config}: evidence[0].claim: does not understand "spreadsheet" (nearest word it knows: "snapshot")\n`,
  );
  assert.ok(!existsSync(join(dir, 'state')));
});

test('deadman run reads an [[evidence]] claim in English: an empty export is green but dead (65), a filled one passes', async (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'out'));
  const config = join(dir, 'run.toml');
  writeFileSync(config, `[[evidence]]\nname = "export"\nclaim = "a non-empty CSV under ${dir}/out"\n`);
  writeFileSync(join(dir, 'out', 'a.csv'), '');
  const run = (args: string[]) =>
    runDeadman(['run', '--config', config, '--database', join(dir, 'state', 'deadman.db'), '--', ...args], {
      cwd: dir,
    });
  const dead = await run(['true']);
  assert.equal(dead.code, 65, dead.stderr);
  writeFileSync(join(dir, 'out', 'a.csv'), 'a,b\n');
  const alive = await run(['true']);
  assert.equal(alive.code, 0, alive.stderr);
});
