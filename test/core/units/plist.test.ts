import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchdRunArgs, plistFileName, renderPlist, type PlistSpec } from '../../../lib/core/units/plist.ts';
import { DeadmanError, NO_RESTART_CODES } from '../../../lib/exit-codes.ts';
import { LAUNCHD_LABEL_ENV, launchdExitCode } from '../../../lib/core/units/launchd-exit.ts';
import { runProgram, tempDir } from '../../helpers/cli.ts';
import { NASTY_ARGS } from '../../fixtures/nasty-args.ts';

const spec: PlistSpec = {
  name: 'review',
  nodePath: '/usr/local/bin/node',
  deadmanEntry: '/usr/local/lib/node_modules/deadman/bin/deadman.js',
  runArgs: ['--inactivity', '10min'],
  command: ['/usr/local/bin/codex', 'exec', '<tag> & "quotes" \'single\''],
  workingDirectory: '/Users/me/repo & co',
  environment: [
    ['PATH', '/usr/local/bin:/usr/bin'],
    ['NOTE', 'a<b>&c'],
  ],
  logDir: '/Users/me/Library/Logs',
  timings: { restartMs: 30_000, stopTimeoutMs: 30_000 },
};

/** Parses with python3's plistlib, the reference reader available on Linux. */
async function parsePlist(t: { after(fn: () => void): void }, text: string): Promise<Record<string, unknown>> {
  const file = join(tempDir(t), 'job.plist');
  writeFileSync(file, text);
  const result = await runProgram('python3', [
    '-c',
    'import json,plistlib,sys; print(json.dumps(plistlib.load(open(sys.argv[1],"rb"))))',
    file,
  ]);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

test('a generated plist is a valid property list with the keys launchd needs', async (t) => {
  const parsed = await parsePlist(t, renderPlist(spec));
  assert.equal(plistFileName('review'), 'deadman.review.plist');
  assert.equal(parsed.Label, 'deadman.review');
  assert.deepEqual(parsed.ProgramArguments, [
    spec.nodePath,
    spec.deadmanEntry,
    'run',
    '--name',
    'review',
    '--inactivity',
    '10min',
    '--on-stall',
    'exit',
    '--',
    ...spec.command,
  ]);
  assert.deepEqual(parsed.KeepAlive, { SuccessfulExit: false });
  assert.equal(parsed.RunAtLoad, true);
  assert.equal(parsed.ThrottleInterval, 30);
  assert.equal(parsed.ExitTimeOut, 30);
  assert.equal(parsed.ProcessType, 'Standard');
  assert.equal(parsed.WorkingDirectory, spec.workingDirectory);
  assert.deepEqual(parsed.EnvironmentVariables, {
    PATH: '/usr/local/bin:/usr/bin',
    NOTE: 'a<b>&c',
    DEADMAN_LAUNCHD_LABEL: 'deadman.review',
  });
  assert.equal(parsed.StandardOutPath, '/Users/me/Library/Logs/deadman-review.log');
  assert.equal(parsed.StandardErrorPath, '/Users/me/Library/Logs/deadman-review.err.log');
});

test('nasty arguments survive the XML round trip, line breaks included', async (t) => {
  const command = ['/bin/echo', ...NASTY_ARGS.filter((a) => !a.includes('\x1b')), 'multi\nline', 'cr\rlf'];
  const parsed = await parsePlist(t, renderPlist({ ...spec, command }));
  assert.deepEqual((parsed.ProgramArguments as string[]).slice(-command.length), command);
});

test('launchd has no watchdog: the run must end stalls itself', () => {
  assert.deepEqual(launchdRunArgs([]), ['--on-stall', 'exit']);
  assert.deepEqual(launchdRunArgs(['--on-stall', 'exit']), ['--on-stall', 'exit']);
  assert.throws(() => launchdRunArgs(['--on-stall', 'withhold']), /needs a systemd watchdog/);
});

test('refuses what XML cannot carry, and bad names', () => {
  assert.throws(
    () => renderPlist({ ...spec, command: ['/bin/echo', 'bell\x07'] }),
    (e: unknown) => e instanceof DeadmanError && /control character/.test(e.message),
  );
  assert.throws(() => renderPlist({ ...spec, name: 'a/b' }), DeadmanError);
});

test("the plist and deadman's exit codes agree with the systemd unit on which exits restart", async (t) => {
  const parsed = await parsePlist(t, renderPlist(spec));
  // launchd.plist(5): KeepAlive { SuccessfulExit = false } restarts a job that exited with anything but 0.
  assert.deepEqual(parsed.KeepAlive, { SuccessfulExit: false });
  const label = (parsed.EnvironmentVariables as Record<string, string>)[LAUNCHD_LABEL_ENV];
  assert.equal(label, parsed.Label);
  for (let code = 0; code < 256; code++) {
    const launchdRestarts = launchdExitCode(code, label).exitCode !== 0;
    // The shipped unit: Restart=on-failure with RestartPreventExitStatus= the no-restart codes.
    const systemdRestarts = code !== 0 && !(NO_RESTART_CODES as readonly number[]).includes(code);
    assert.equal(launchdRestarts, systemdRestarts, `exit ${code}`);
  }
});

test("a label given with --env is the job's own, not a second one", async (t) => {
  const parsed = await parsePlist(
    t,
    renderPlist({ ...spec, environment: [...spec.environment, [LAUNCHD_LABEL_ENV, 'other']] }),
  );
  assert.equal((parsed.EnvironmentVariables as Record<string, string>)[LAUNCHD_LABEL_ENV], 'deadman.review');
});
