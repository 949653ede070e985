import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { PLANTED, PLANTED_TEXT } from '../helpers/planted-secrets.ts';

/**
 * `deadman run --record`: the secrets a child prints — each shape once, and one secret printed
 * in two writes — reach none of the files deadman writes (the database's own bytes, its WAL,
 * the trace) nor anything it prints (report, stderr). The trace is a new 0600 file; a file or
 * a symlink already at its path is refused.
 */

const SPLIT_HEAD = 'api_key=splitHalfOne';
const SPLIT_TAIL = 'HalfTwo99';
const SECRETS: Array<[string, string]> = [
  ...Object.entries(PLANTED),
  ['the tail of a secret printed in two writes', SPLIT_TAIL],
];

function leaks(where: string, text: string): string[] {
  return SECRETS.filter(([, secret]) => text.includes(secret)).map(([shape]) => `${shape} in ${where}`);
}

const env = {
  ...process.env,
  DEADMAN_CONFIG: '',
  NOTIFY_SOCKET: '',
  WATCHDOG_USEC: '',
  JOURNAL_STREAM: '',
  PLANTED_TEXT,
  MY_SERVICE_TOKEN: PLANTED.envSecret,
};

test('planted secrets reach no byte of the database files, the trace, the report or stderr', async (t) => {
  const dir = tempDir(t);
  const database = join(dir, 'deadman.db');
  const trace = join(dir, 'run.trace.jsonl');
  // The second half of the split secret comes in a write of its own, after the first half was read.
  // (From the environment: the child's argv is recorded too, and must not carry them.)
  const script = `printf '%s\\n' "$PLANTED_TEXT"; echo "$MY_SERVICE_TOKEN"; printf '%s' "$SPLIT_HEAD"; sleep 0.3; printf '%s and more\\n' "$SPLIT_TAIL"; echo done >&2`;
  // The flag and its value as separate arguments: the tree's observations carry them so.
  const run = await runDeadman(
    [
      'run',
      '--state-dir',
      dir,
      '--database',
      database,
      '--record',
      trace,
      '--adapter',
      'generic',
      '--poll',
      '200ms',
      '--',
      'sh',
      '-c',
      script,
      'root',
      '--password',
      PLANTED.passwordFlag,
    ],
    { env: { ...env, SPLIT_HEAD, SPLIT_TAIL }, cwd: dir },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.ok(run.stdout.includes(SPLIT_TAIL), "the passthrough is the child's own output");
  const report = await runDeadman(['report', 'latest', '--json', '--state-dir', dir, '--database', database], {
    env: { ...env, MY_SERVICE_TOKEN: '' },
    cwd: dir,
  });
  assert.equal(report.code, 0, report.stderr);

  const traceText = readFileSync(trace, 'utf8');
  const databaseFiles = readdirSync(dir).filter((name) => name.startsWith('deadman.db'));
  const found = [
    ...leaks('stderr', run.stderr),
    ...leaks('the trace', traceText),
    ...databaseFiles.flatMap((name) => leaks(name, readFileSync(join(dir, name), 'latin1'))),
    ...leaks('the report', report.stdout + report.stderr),
  ];
  assert.deepEqual(found, []);
  assert.match(
    traceText,
    /-----BEGIN OPENSSH PRIVATE KEY-----/,
    'the armour of the key stays, so the trace says what was there',
  );
  assert.ok(traceText.includes(`api_key=[REDACTED] and more`), traceText);
  assert.equal(statSync(trace).mode & 0o777, 0o600);
});

test('--record refuses a path where a file or a symlink already is (exit 64, one line), and leaves it as it was', async (t) => {
  const dir = tempDir(t);
  const existing = join(dir, 'existing.jsonl');
  writeFileSync(existing, 'keep me\n', { mode: 0o644 });
  const link = join(dir, 'link.jsonl');
  const target = join(dir, 'elsewhere');
  symlinkSync(target, link);
  for (const path of [existing, link]) {
    const run = await runDeadman(['run', '--state-dir', dir, '--record', path, '--', 'echo', 'ran'], { env, cwd: dir });
    assert.equal(run.code, 64, run.stderr);
    assert.equal(run.stdout, '', 'the work did not start');
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
    assert.match(run.stderr, /--record .*already there/);
  }
  assert.equal(readFileSync(existing, 'utf8'), 'keep me\n');
  assert.equal(statSync(existing).mode & 0o777, 0o644);
  assert.ok(lstatSync(link).isSymbolicLink());
  assert.deepEqual(
    readdirSync(dir).filter((name) => name === 'elsewhere'),
    [],
    'the symlink was not followed',
  );
});
