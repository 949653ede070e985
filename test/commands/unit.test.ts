import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ExitCode, NO_RESTART_CODES } from '../../lib/exit-codes.ts';
import { findExecutable } from '../../lib/io/units/executable.ts';
import { NASTY_ARGS } from '../fixtures/nasty-args.ts';
import { runDeadman, runProgram, tempDir } from '../helpers/cli.ts';

/** `systemd-analyze verify` on files in one directory; returns its complaints (empty = clean). */
async function verify(dir: string, files: string[], user = false): Promise<string> {
  const runtime = join(dir, 'runtime');
  mkdirSync(runtime, { recursive: true, mode: 0o700 });
  const result = await runProgram(
    'systemd-analyze',
    [...(user ? ['--user'] : []), 'verify', ...files.map((f) => join(dir, f))],
    {
      env: { ...process.env, XDG_RUNTIME_DIR: runtime },
    },
  );
  return `${result.code === 0 ? '' : `exit ${result.code}: `}${result.stdout}${result.stderr}`.trim();
}

const haveAnalyze = findExecutable('systemd-analyze', process.env.PATH ?? '') !== null;

test(
  'units generated for nasty argv verify cleanly with systemd-analyze',
  { skip: !haveAnalyze && 'systemd-analyze is not installed' },
  async (t) => {
    const dir = tempDir(t);
    const files: string[] = [];
    for (const [i, arg] of NASTY_ARGS.entries()) {
      const result = await runDeadman(
        ['unit', '--name', `nasty${i}`, '--inactivity', '5min', '--ignore', 'mcp .*%', '--', 'echo', arg, 'after'],
        { cwd: dir },
      );
      assert.equal(result.code, 0, result.stderr);
      files.push(`deadman-nasty${i}.service`);
      writeFileSync(join(dir, files.at(-1)!), result.stdout);
    }
    assert.equal(await verify(dir, files), '');
  },
);

test(
  'a --user unit verifies too, and a space in the working directory is fine',
  { skip: !haveAnalyze && 'systemd-analyze is not installed' },
  async (t) => {
    const dir = join(tempDir(t), 'dir with 100% spaces');
    mkdirSync(dir);
    const result = await runDeadman(['unit', '--user', '--name', 'mine', '--', 'sleep', '1'], { cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^WorkingDirectory=.*dir with 100%% spaces$/m);
    assert.match(result.stdout, /^WantedBy=default\.target$/m);
    assert.doesNotMatch(result.stdout, /^User=/m);
    writeFileSync(join(dir, 'deadman-mine.service'), result.stdout);
    assert.equal(await verify(dir, ['deadman-mine.service'], true), '');
  },
);

test('the generated unit writes absolute paths and the given run options', async () => {
  const result = await runDeadman([
    'unit',
    '--name',
    'abs',
    '--auto-recover',
    '--hung-timeout',
    '90s',
    '--ignore',
    'a',
    '--ignore',
    'b',
    '--watchdog',
    '2s',
    '--restart-sec',
    '1s',
    '--',
    'sleep',
    '5',
  ]);
  assert.equal(result.code, 0, result.stderr);
  const execStart = /^ExecStart=(.*)$/m.exec(result.stdout)?.[1] ?? '';
  assert.ok(execStart.startsWith(`${process.execPath} `), execStart);
  assert.match(
    execStart,
    /\/bin\/deadman\.js run --name abs --auto-recover --hung-timeout 90s --ignore a --ignore b -- \/\S*sleep 5$/,
  );
  assert.match(result.stdout, /^WatchdogSec=2s$/m);
  assert.match(result.stdout, /^RestartSec=1s$/m);
  assert.match(result.stdout, new RegExp(`^RestartPreventExitStatus=${NO_RESTART_CODES.join(' ')}$`, 'm'));
  assert.match(result.stdout, /^Environment=.*PATH=/m);
});

test('a config file found for the run is named explicitly in the unit', async (t) => {
  const dir = tempDir(t);
  const config = join(dir, 'deadman.toml');
  writeFileSync(config, 'inactivity = "2min"\nstop_grace = "40s"\n');
  const result = await runDeadman(['unit', '--config', config, '--', 'true']);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, new RegExp(`run --name true --config ${config} -- `));
  assert.match(result.stdout, /^WatchdogSec=30s$/m, "a quarter of the config's inactivity");
  assert.match(result.stdout, /^TimeoutStopSec=60s$/m, "above the config's stop_grace");
});

test('--launchd prints a plist that plistlib reads', async (t) => {
  const result = await runDeadman(['unit', '--launchd', '--name', 'mac', '--', 'echo', 'a & <b>']);
  assert.equal(result.code, 0, result.stderr);
  const file = join(tempDir(t), 'mac.plist');
  writeFileSync(file, result.stdout);
  const parsed = await runProgram('python3', [
    '-c',
    'import json,plistlib,sys; d=plistlib.load(open(sys.argv[1],"rb")); print(json.dumps(d["ProgramArguments"][-2:]), d["Label"], d["KeepAlive"]["SuccessfulExit"])',
    file,
  ]);
  assert.equal(parsed.code, 0, parsed.stderr);
  assert.match(parsed.stdout, /^\["\/\S*echo", "a & <b>"\] deadman\.mac False$/m);
});

test('bad requests fail with one line and the right exit code', async (t) => {
  const dir = tempDir(t);
  const cases: Array<[string[], number, RegExp]> = [
    [['unit', '--', 'echo', 'two\nlines'], ExitCode.USAGE, /argument 2 .*line break/],
    [['unit'], ExitCode.USAGE, /name the command after --/],
    [['unit', '--', 'no-such-program-here'], ExitCode.USAGE, /not found in PATH/],
    [['unit', '--', './missing.sh'], ExitCode.USAGE, /is not an executable file/],
    [['unit', '--name', 'a@b', '--', 'true'], ExitCode.USAGE, /--name "a@b"/],
    [['unit', '--name', 'a.b', '--', 'true', 'x'], 0, /./],
    [['unit', '--inactivity', '5 parsecs', '--', 'true'], ExitCode.CONFIG, /inactivity/],
    [['unit', '--watchdog', 'soon', '--', 'true'], ExitCode.USAGE, /--watchdog/],
    [['unit', '--env', 'NOEQUALS', '--', 'true'], ExitCode.USAGE, /KEY=VALUE/],
    [['unit', '--launchd', '--on-stall', 'withhold', '--', 'true'], ExitCode.USAGE, /launchd has none/],
    [
      ['unit', '--run-as', 'no-such-user-here', '--', 'true'],
      ExitCode.USAGE,
      /--run-as "no-such-user-here": no such user/,
    ],
    [['unit', '--launchd', '--sandbox', 'strict', '--', 'true'], ExitCode.USAGE, /--sandbox is for systemd units/],
  ];
  for (const [args, code, message] of cases) {
    const result = await runDeadman(args, { cwd: dir });
    assert.equal(result.code, code, `${args.join(' ')}: ${result.stderr}`);
    if (code === 0) continue;
    assert.match(result.stderr, message, args.join(' '));
    assert.equal(result.stderr.trim().split('\n').length, 1, `one line: ${result.stderr}`);
    assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
  }
});

test('[unit] sandbox chooses the level, --sandbox wins, and a bad level is a usage error', async (t) => {
  const dir = tempDir(t);
  const config = join(dir, 'deadman.toml');
  writeFileSync(config, '[unit]\nsandbox = "strict"\n');
  const strict = await runDeadman(['unit', '--config', config, '--', 'true'], { cwd: dir });
  assert.equal(strict.code, 0, strict.stderr);
  assert.match(strict.stdout, /^RestrictNamespaces=yes$/m);
  const off = await runDeadman(['unit', '--config', config, '--sandbox', 'off', '--', 'true'], { cwd: dir });
  assert.doesNotMatch(off.stdout, /^ProtectSystem=/m);
  const bad = await runDeadman(['unit', '--sandbox', 'paranoid', '--', 'true'], { cwd: dir });
  assert.equal(bad.code, ExitCode.USAGE, bad.stderr);
  assert.match(bad.stderr, /sandbox/);
});

test("an exported STATE_DIRECTORY goes into ReadWritePaths= and the run's --state-dir; a configured one wins", async (t) => {
  const dir = tempDir(t);
  const state = join(dir, 'exported-state');
  const env = { ...process.env, STATE_DIRECTORY: state };
  const result = await runDeadman(['unit', '--user', '--', 'true'], { cwd: dir, env });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, new RegExp(`^ReadWritePaths=.* ${state}( |$)`, 'm'));
  assert.match(result.stdout, new RegExp(`^ExecStart=.* run --name true --state-dir ${state} -- `, 'm'));
  assert.match(
    result.stdout,
    new RegExp(`^# The records stay in ${state}, as generated: point .deadman report. there`, 'm'),
  );
  const config = join(dir, 'deadman.toml');
  writeFileSync(config, `state_dir = "${join(dir, 'configured')}"\n`);
  const configured = await runDeadman(['unit', '--user', '--config', config, '--', 'true'], { cwd: dir, env });
  assert.doesNotMatch(configured.stdout, /^ExecStart=.*--state-dir/m);
  assert.match(configured.stdout, new RegExp(`^ReadWritePaths=.* ${join(dir, 'configured')}( |$)`, 'm'));
});

test("StartLimitBurst= comes from the config's revive.max_revives, so deadman's budget runs out first", async (t) => {
  const dir = tempDir(t);
  const config = join(dir, 'deadman.toml');
  writeFileSync(config, '[revive]\nmax_revives = 12\n');
  const result = await runDeadman(['unit', '--config', config, '--', 'true'], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  const burst = Number(/^StartLimitBurst=(\d+)$/m.exec(result.stdout)?.[1]);
  assert.ok(
    burst > 12 + 1,
    `StartLimitBurst=${burst}: the first start, 12 revives and the start that exits 69 must fit`,
  );
  assert.match(result.stdout, /^ExecReload=\/bin\/kill -HUP \$MAINPID$/m);
});
