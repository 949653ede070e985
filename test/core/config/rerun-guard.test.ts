import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rerunProblem } from '../../../lib/core/config/rerun-guard.ts';
import { jobSchema } from '../../../lib/core/config/config.ts';

const SENTENCES: string[][] = [
  ['Run the backup script again by hand'],
  ['run the export again'],
  ['Run', 'the', 'backup', 'script', 'again', 'by', 'hand'],
  ['Restart nightly export.'],
  ['Please', 'rerun', 'it'],
  ['rerun', 'the', 'job', 'manually'],
];

const PLACEHOLDERS: Array<[string[], string]> = [
  [['/path/to/logrotate'], '/path/to'],
  [['/usr/bin/backup', '--target', '/PATH/TO/dir'], '/path/to'],
  [['curl', '-fsS', 'https://<host>/ping'], '<…>'],
  [['backup', '<…>'], '<…>'],
  [['backup', '--token', 'YOUR_TOKEN'], 'YOUR_…'],
  [['curl', 'https://hooks.example.com/x'], 'example.com'],
  [['rsync', 'a', 'backup@example.org:/srv'], 'example.com'],
];

const COMMANDS: string[][] = [
  ['/usr/bin/logrotate', '/etc/logrotate.conf'],
  ['systemctl', 'start', 'backup.service'],
  ['systemctl', 'restart', 'nginx'],
  ['sh', '-c', 'cd /srv/export && ./export --since yesterday > /var/log/export.log 2>&1'],
  ['/bin/sh', '-c', 'echo a,b > /out/export-2026-09-10.csv'],
  ['make', '-C', '/srv/site', 'deploy'],
  ['/opt/My Tools/bin/backup', '--full'],
  ['Rscript', 'report.R'],
  ['pg_dump', '-Fc', '-f', '/backup/db.dump', 'app'],
  ['restic', 'backup', '/srv'],
  ['/bin/true'],
];

test('a rerun that reads as an English sentence is refused', () => {
  for (const argv of SENTENCES)
    assert.match(rerunProblem(argv) ?? '', /reads as an English sentence/, JSON.stringify(argv));
});

test('a rerun holding a placeholder is refused, naming it', () => {
  for (const [argv, what] of PLACEHOLDERS) {
    const problem = rerunProblem(argv) ?? '';
    assert.match(problem, /^holds a placeholder/, JSON.stringify(argv));
    assert.ok(problem.includes(`(${what} in`), `${problem} names ${what}`);
  }
});

test('real commands pass: paths, flags, unit names, shell strings, plain program words', () => {
  for (const argv of COMMANDS) assert.equal(rerunProblem(argv), null, JSON.stringify(argv));
});

test('a command line written as one string is refused: it would never start', () => {
  assert.match(
    rerunProblem(['systemctl start backup.service']) ?? '',
    /names a program with spaces \("systemctl start backup\.service"\); give each word as its own list item/,
  );
});

test('the job schema refuses through the guard and takes a job without rerun', () => {
  const evidence = [{ kind: 'command', command: ['true'] }];
  const refused = jobSchema.safeParse({ rerun: ['Run the backup script again by hand'], evidence });
  assert.equal(refused.success, false);
  assert.deepEqual(
    refused.error!.issues.map((i) => i.path),
    [['rerun']],
  );
  const without = jobSchema.parse({ evidence });
  assert.equal(without.rerun, undefined);
});
