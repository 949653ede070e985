import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir } from './helpers/cli.ts';

/** Each command with a typo, and the line it must print. Nothing may run or print before it. */
const TYPOS: Array<[string[], RegExp]> = [
  [['status', '--jsn'], /unknown option --jsn for deadman status; did you mean --json\?/],
  [['status', 'extra'], /unexpected argument "extra" for deadman status/],
  [['report', 'latest', '--jsn'], /unknown option --jsn for deadman report; did you mean --json\?/],
  [['incidents', '--sinse', '1d'], /unknown option --sinse for deadman incidents; did you mean --since\?/],
  [
    ['config', 'check', '--databse', '/x.db'],
    /unknown option --databse for deadman config check; did you mean --database\?/,
  ],
  [['config', 'check', '--frob'], /unknown option --frob for deadman config check; its options are .*--database/],
  [['revive', '--dry-rn'], /unknown option --dry-rn for deadman revive; did you mean --dry-run\?/],
  [['check', '--verbos'], /unknown option --verbos for deadman check; did you mean --verbose\?/],
  [['check', '-x'], /unknown option -x for deadman check; its options are/],
  [['demo', '--databas', '/x.db'], /did you mean --database\?/],
  [['unit', '--nme', 'x', '--', 'true'], /unknown option --nme for deadman unit; did you mean --name\?/],
  [
    ['unit', '--name', 'x', 'codex', 'exec', '--json'],
    /"codex" is not an option of deadman unit; put the program after --: deadman unit \[options\] -- codex …/,
  ],
  [
    ['install', '--frob', '--', 'true'],
    /unknown option --frob for deadman install; if it is the program's, put the program after --/,
  ],
  [
    ['run', '--inactivty', '5s', '--', 'true'],
    /unknown option --inactivty for deadman run; did you mean --inactivity\?/,
  ],
  [
    ['run', 'codex', 'exec', '--json', 'fix it'],
    /"codex" is not an option of deadman run; put the program after --: deadman run \[options\] -- codex …/,
  ],
  [
    ['run', '--json', '--', 'codex'],
    /unknown option --json for deadman run; if it is the program's, put the program after --/,
  ],
  [['stauts'], /unknown command "stauts"; did you mean "status"\?/],
  [['codex', 'exec', 'hi'], /unknown command "codex"; to supervise a program: deadman run \[options\] -- codex …/],
];

test('an unknown option or a missing -- is exit 64 with one line, before anything runs or prints', async (t) => {
  const dir = tempDir(t);
  const env = { ...process.env, STATE_DIRECTORY: join(dir, 'state'), DEADMAN_CONFIG: '', HOME: dir, NOTIFY_SOCKET: '' };
  for (const [args, expected] of TYPOS) {
    const result = await runDeadman(args, { env, cwd: dir });
    const label = `deadman ${args.join(' ')}`;
    assert.equal(result.code, 64, `${label}: exit ${result.code}\n${result.stdout}${result.stderr}`);
    assert.equal(result.stdout, '', `${label} printed before failing`);
    const lines = result.stderr.trim().split('\n');
    assert.equal(lines.length, 1, `${label}: ${result.stderr}`);
    assert.match(lines[0]!, expected, label);
  }
  assert.equal(existsSync(join(dir, 'state', 'deadman.db')), false, 'a command opened the database before failing');
});

test('deadman run with a typo never starts the program', async (t) => {
  const dir = tempDir(t);
  const touched = join(dir, 'ran');
  const result = await runDeadman(['run', '--hung-timout', '5s', '--', 'sh', '-c', `touch ${touched}`], {
    env: { ...process.env, STATE_DIRECTORY: dir, DEADMAN_CONFIG: '' },
  });
  assert.equal(result.code, 64, result.stderr);
  assert.match(result.stderr, /did you mean --hung-timeout\?/);
  assert.equal(existsSync(touched), false);
});
