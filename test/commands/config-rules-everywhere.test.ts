import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ExitCode } from '../../lib/exit-codes.ts';
import { runDeadman, tempDir } from '../helpers/cli.ts';

/**
 * Issue 22.6: the rules between keys are the same everywhere. What `config check` calls a
 * problem, `run`, `unit` and `install` refuse with exit 78 and the same line, before any work
 * starts or any unit file is written.
 */

const HUNG = /hung_timeout \(2min\) is not shorter than inactivity \(1min\)/;
const WATCHDOG = /the systemd watchdog \(WatchdogSec=2min\) is longer than inactivity \(1min\)/;

/** The one problem line of a refusal on stderr (after "deadman: "). */
function refusedLine(stderr: string): string {
  const lines = stderr.trim().split('\n');
  assert.equal(lines.length, 1, stderr);
  return lines[0]!.replace(/^deadman: (error: )?/, '');
}

test('hung_timeout not shorter than inactivity: config check, run, unit and install all refuse it with one line', async (t) => {
  const dir = tempDir(t);
  const config = join(dir, 'job.toml');
  writeFileSync(config, 'inactivity = "1min"\nhung_timeout = "2min"\n');
  const env = { ...process.env, STATE_DIRECTORY: join(dir, 'state'), NOTIFY_SOCKET: '', WATCHDOG_USEC: '' };
  const checked = await runDeadman(['config', 'check', '--quiet', '--config', config], { env });
  assert.equal(checked.code, ExitCode.CONFIG);
  // (Its other lines, such as a missing sd-notify addon, are facts of this machine, not of the file.)
  const expected = checked.stdout
    .split('\n')
    .find((line) => HUNG.test(line))!
    .replace(/^problem: /, '');
  const marker = join(dir, 'ran');
  const run = await runDeadman(['run', '--config', config, '--', 'touch', marker], { env });
  assert.equal(run.code, ExitCode.CONFIG, run.stderr);
  assert.equal(refusedLine(run.stderr), expected);
  assert.equal(existsSync(marker), false, 'the work never started');
  const unit = await runDeadman(['unit', '--config', config, '--', 'true'], { env, cwd: dir });
  assert.equal(unit.code, ExitCode.CONFIG, unit.stderr);
  assert.equal(refusedLine(unit.stderr), expected);
  assert.equal(unit.stdout, '', 'no unit printed');
  const unitDir = join(dir, 'units');
  const install = await runDeadman(['install', '--user', '--unit-dir', unitDir, '--config', config, '--', 'true'], {
    env,
    cwd: dir,
  });
  assert.equal(install.code, ExitCode.CONFIG, install.stderr);
  assert.equal(refusedLine(install.stderr), expected);
  assert.equal(existsSync(unitDir), false, 'nothing installed');
  const flags = await runDeadman(['run', '--inactivity', '1min', '--hung-timeout', '2min', '--', 'true'], { env });
  assert.equal(flags.code, ExitCode.CONFIG, 'the same keys as flags');
  assert.match(flags.stderr, HUNG);
});

test('a default hung_timeout against a short inactivity is no conflict: nobody chose it', async (t) => {
  const dir = tempDir(t);
  const env = { ...process.env, STATE_DIRECTORY: join(dir, 'state'), NOTIFY_SOCKET: '', WATCHDOG_USEC: '' };
  const run = await runDeadman(['run', '--inactivity', '2s', '--', 'true'], { env });
  assert.equal(run.code, 0, run.stderr);
});

test('a watchdog longer than inactivity: unit and install refuse --watchdog, run refuses WatchdogSec=', async (t) => {
  const dir = tempDir(t);
  const env = { ...process.env, STATE_DIRECTORY: join(dir, 'state'), NOTIFY_SOCKET: '', WATCHDOG_USEC: '' };
  const unit = await runDeadman(['unit', '--inactivity', '1min', '--watchdog', '2min', '--', 'true'], {
    env,
    cwd: dir,
  });
  assert.equal(unit.code, ExitCode.CONFIG, unit.stdout);
  assert.match(refusedLine(unit.stderr), WATCHDOG);
  assert.doesNotMatch(unit.stdout, /WatchdogSec=120s/);
  const install = await runDeadman(
    ['install', '--user', '--unit-dir', join(dir, 'units'), '--inactivity', '1min', '--watchdog', '2min', '--', 'true'],
    { env, cwd: dir },
  );
  assert.equal(install.code, ExitCode.CONFIG);
  assert.match(refusedLine(install.stderr), WATCHDOG);
  const equal = await runDeadman(['unit', '--inactivity', '1min', '--watchdog', '1min', '--', 'true'], {
    env,
    cwd: dir,
  });
  assert.equal(equal.code, 0, equal.stderr);
  const underSystemd = { ...env, NOTIFY_SOCKET: join(dir, 'notify.sock'), WATCHDOG_USEC: '120000000' };
  const run = await runDeadman(['run', '--inactivity', '1min', '--', 'true'], { env: underSystemd });
  assert.equal(run.code, ExitCode.CONFIG, run.stderr);
  assert.match(refusedLine(run.stderr), WATCHDOG);
});
