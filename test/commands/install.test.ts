import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ExitCode } from '../../lib/exit-codes.ts';
import { findExecutable } from '../../lib/io/units/executable.ts';
import { deadmanBin, runDeadman, runProgram, tempDir } from '../helpers/cli.ts';

test('install writes the unit, refuses to overwrite it, and replaces it with --force', async (t) => {
  const dir = tempDir(t);
  const unit = join(dir, 'deadman-job.service');
  const first = await runDeadman(['install', '--unit-dir', dir, '--name', 'job', '--', 'sleep', '60']);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, new RegExp(`^created ${unit}$`, 'm'));
  assert.match(first.stdout, /^start: systemctl daemon-reload && systemctl enable --now deadman-job\.service$/m);
  assert.match(readFileSync(unit, 'utf8'), /sleep 60$/m);
  assert.equal(statSync(unit).mode & 0o777, 0o644);

  writeFileSync(unit, 'operator edits\n');
  const again = await runDeadman(['install', '--unit-dir', dir, '--name', 'job', '--', 'sleep', '61']);
  assert.equal(again.code, ExitCode.USAGE);
  assert.match(again.stderr, /already exists; .*--force/);
  assert.equal(readFileSync(unit, 'utf8'), 'operator edits\n', 'the existing file is untouched');

  const forced = await runDeadman(['install', '--unit-dir', dir, '--name', 'job', '--force', '--', 'sleep', '62']);
  assert.equal(forced.code, 0, forced.stderr);
  assert.match(forced.stdout, /^replaced /m);
  assert.match(readFileSync(unit, 'utf8'), /sleep 62$/m);
});

test("--user goes to the user manager's directory, --launchd to LaunchAgents", async (t) => {
  const home = tempDir(t);
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, 'cfg') };
  const user = await runDeadman(['install', '--user', '--name', 'mine', '--', 'true'], { env });
  assert.equal(user.code, 0, user.stderr);
  assert.ok(existsSync(join(home, 'cfg', 'systemd', 'user', 'deadman-mine.service')));
  assert.match(user.stdout, /systemctl --user daemon-reload && systemctl --user enable --now deadman-mine\.service/);
  assert.match(user.stdout, /loginctl enable-linger/);

  const mac = await runDeadman(['install', '--launchd', '--name', 'mine', '--', 'true'], { env });
  assert.equal(mac.code, 0, mac.stderr);
  const plist = join(home, 'Library', 'LaunchAgents', 'deadman.mine.plist');
  assert.ok(existsSync(plist));
  assert.match(mac.stdout, /launchctl bootstrap gui\/\$\(id -u\) /);
});

test('--env values may be secrets: the file is then readable by its owner only', async (t) => {
  const dir = tempDir(t);
  const result = await runDeadman([
    'install',
    '--unit-dir',
    dir,
    '--name',
    'secret',
    '--env',
    'API_TOKEN=s3cr3t',
    '--',
    'true',
  ]);
  assert.equal(result.code, 0, result.stderr);
  const unit = join(dir, 'deadman-secret.service');
  assert.equal(statSync(unit).mode & 0o777, 0o600);
  assert.match(readFileSync(unit, 'utf8'), /^Environment=API_TOKEN=s3cr3t$/m);
});

test('a system unit needs root; a non-root user is told about sudo and --user', async (t) => {
  // As root, a user namespace makes deadman see another uid while it can still read the checkout.
  const asRoot = process.getuid?.() === 0;
  if (asRoot && !findExecutable('unshare', process.env.PATH ?? ''))
    return t.skip('needs unshare(1) to run as a non-root uid');
  const argv = [process.execPath, deadmanBin, 'install', '--name', 'x', '--', 'true'];
  const result = asRoot
    ? await runProgram('unshare', ['--user', '--map-user=1000', '--map-group=1000', ...argv], {
        env: { ...process.env, HOME: tempDir(t) },
      })
    : await runProgram(argv[0]!, argv.slice(1));
  if (asRoot && /^unshare: /m.test(result.stderr))
    return t.skip(`user namespaces unavailable: ${result.stderr.trim()}`);
  assert.equal(result.code, ExitCode.USAGE, result.stderr);
  assert.match(result.stderr, /needs root: run this with sudo, or pass --user/);
});

test("the hint shows this job's records where this job keeps them (--state-dir kept), and it works as printed", async (t) => {
  const dir = tempDir(t);
  const state = join(dir, 'job state');
  const env = { ...process.env, STATE_DIRECTORY: join(dir, 'elsewhere'), NOTIFY_SOCKET: '' };
  const installed = await runDeadman(
    ['install', '--unit-dir', dir, '--name', 'hinted', '--state-dir', state, '--', 'true'],
    { env },
  );
  assert.equal(installed.code, 0, installed.stderr);
  const hint = /^watch: systemctl status deadman-hinted\.service · (deadman incidents .*)$/m.exec(
    installed.stdout,
  )?.[1];
  assert.equal(hint, `deadman incidents --name hinted --state-dir '${state}'`, installed.stdout);
  // The job's run leaves an incident in its own state directory; another job's stays in the shell's.
  for (const [name, args] of [
    ['hinted', ['--state-dir', state]],
    ['other', []],
  ] as const) {
    const run = await runDeadman(['run', '--name', name, ...args, '--inactivity', '1s', '--', 'sleep', '30'], {
      env,
      cwd: dir,
    });
    assert.equal(run.code, 75, run.stderr);
  }
  const shown = await runProgram('sh', ['-c', hint!.replace(/^deadman /, `"${process.execPath}" "${deadmanBin}" `)], {
    env,
    cwd: dir,
  });
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /hinted/);
  assert.doesNotMatch(shown.stdout, /other/);
});
