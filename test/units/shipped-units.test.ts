import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NO_RESTART_CODES } from '../../lib/exit-codes.ts';
import { findExecutable } from '../../lib/io/units/executable.ts';
import { hardeningLines } from '../../lib/core/units/hardening.ts';
import { deadmanBin, repoRoot, runProgram, tempDir } from '../helpers/cli.ts';

const unitsDir = join(repoRoot, 'units');
const shipped = readdirSync(unitsDir).filter((f) => /\.(service|timer)$/.test(f));

test('units/ ships the template and its OnFailure= helper', () => {
  assert.ok(shipped.includes('deadman@.service'));
  assert.ok(shipped.includes('deadman-notify@.service'));
});

test("RestartPreventExitStatus= in every shipped service is the exit-code contract's list", () => {
  for (const file of shipped.filter((f) => f.endsWith('.service'))) {
    const text = readFileSync(join(unitsDir, file), 'utf8');
    for (const line of text.split('\n').filter((l) => l.startsWith('RestartPreventExitStatus='))) {
      assert.equal(line, `RestartPreventExitStatus=${NO_RESTART_CODES.join(' ')}`, file);
    }
  }
  assert.match(readFileSync(join(unitsDir, 'deadman@.service'), 'utf8'), /^RestartPreventExitStatus=/m);
});

test('every shipped service that starts deadman behind PrivateTmp= keeps its compiled code in CacheDirectory=', () => {
  // Else Node's compile cache goes to a /tmp emptied at every start, and each timer pass compiles deadman anew.
  for (const file of shipped.filter((f) => f.endsWith('.service'))) {
    const text = readFileSync(join(unitsDir, file), 'utf8');
    if (!/^ExecStart=-?\/usr\/bin\/deadman /m.test(text) || !/^PrivateTmp=yes$/m.test(text)) continue;
    assert.match(text, /^CacheDirectory=deadman$/m, file);
  }
});

test('the template keeps the settings the docs promise', () => {
  const text = readFileSync(join(unitsDir, 'deadman@.service'), 'utf8');
  for (const line of [
    'Type=notify',
    'NotifyAccess=main',
    'Restart=on-failure',
    'KillMode=control-group',
    'StateDirectory=deadman',
    'ExecStart=/usr/bin/deadman run --config /etc/deadman/%i.toml --name %i',
    'OnFailure=deadman-notify@%i.service',
  ]) {
    assert.match(text, new RegExp(`^${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'), line);
  }
  const seconds = (key: string) => Number(new RegExp(`^${key}=(\\d+)s$`, 'm').exec(text)?.[1]);
  assert.ok(seconds('RestartSec') >= 1, "RestartSec is not systemd's 100 ms");
  assert.ok(seconds('TimeoutStopSec') > 10, 'TimeoutStopSec is above the default stop_grace of 10s');
  assert.ok(
    seconds('WatchdogSec') > 0 && seconds('WatchdogSec') * 1000 < 30 * 60_000,
    'WatchdogSec is far below the default inactivity',
  );
  const unitSection = text.slice(text.indexOf('[Unit]'), text.indexOf('[Service]'));
  assert.match(unitSection, /^StartLimitIntervalSec=/m);
  assert.match(unitSection, /^StartLimitBurst=/m);
});

test('the template is sandboxed like a generated unit, but for what only a generated one knows', () => {
  const directives = (lines: string[]) => lines.filter((l) => /^[A-Za-z]+=/.test(l));
  const template = directives(readFileSync(join(unitsDir, 'deadman@.service'), 'utf8').split('\n'));
  const generated = directives(
    hardeningLines({
      level: 'default',
      scope: 'system',
      writablePaths: ['/srv/work'],
      startedPaths: ['/usr/bin/deadman'],
      runAs: 'root',
      home: '/root',
    }),
  );
  const onlyGenerated = /^(ProtectSystem|ReadWritePaths)=/;
  assert.deepEqual(
    generated.filter((l) => !onlyGenerated.test(l)).filter((l) => !template.includes(l)),
    [],
  );
  assert.ok(
    template.includes('ProtectSystem=full'),
    'the template cannot know the working directory that strict would need',
  );
});

test('every directive line of the template and its helper has a comment saying why', () => {
  for (const file of ['deadman@.service', 'deadman-notify@.service']) {
    const lines = readFileSync(join(unitsDir, file), 'utf8').split('\n');
    const bare = lines.filter(
      (line, i) =>
        /^[A-Za-z]+=/.test(line) &&
        !/^(Description|WantedBy|After|StartLimitBurst)=/.test(line) &&
        !(lines[i - 1] ?? '').startsWith('#'),
    );
    assert.deepEqual(bare, [], file);
  }
});

test(
  'systemd-analyze verify passes on every shipped unit',
  { skip: !findExecutable('systemd-analyze', process.env.PATH ?? '') && 'systemd-analyze is not installed' },
  async (t) => {
    // verify needs each ExecStart binary to exist: point /usr/bin/deadman at this checkout's entry.
    const dir = tempDir(t);
    const runtime = join(dir, 'runtime');
    mkdirSync(runtime, { mode: 0o700 });
    for (const file of shipped)
      writeFileSync(
        join(dir, file),
        readFileSync(join(unitsDir, file), 'utf8').replaceAll('/usr/bin/deadman', deadmanBin),
      );
    const result = await runProgram('systemd-analyze', ['verify', ...shipped.map((f) => join(dir, f))], {
      env: { ...process.env, XDG_RUNTIME_DIR: runtime },
    });
    assert.equal(`${result.stdout}${result.stderr}`.trim(), '');
    assert.equal(result.code, 0);
  },
);

test('the example plist in contrib/ parses and has the keys launchd needs', async () => {
  const file = join(repoRoot, 'contrib', 'com.example.deadman.plist');
  const result = await runProgram('python3', [
    '-c',
    'import json,plistlib,sys; print(json.dumps(plistlib.load(open(sys.argv[1],"rb"))))',
    file,
  ]);
  assert.equal(result.code, 0, result.stderr);
  const plist = JSON.parse(result.stdout) as Record<string, unknown>;
  for (const key of [
    'Label',
    'ProgramArguments',
    'KeepAlive',
    'ThrottleInterval',
    'ProcessType',
    'StandardOutPath',
    'StandardErrorPath',
    'WorkingDirectory',
    'EnvironmentVariables',
  ]) {
    assert.ok(key in plist, key);
  }
  assert.deepEqual(plist.KeepAlive, { SuccessfulExit: false });
  assert.equal(
    (plist.EnvironmentVariables as Record<string, string>).DEADMAN_LAUNCHD_LABEL,
    plist.Label,
    'a "do not restart" code ends the job with 0',
  );
  const argv = plist.ProgramArguments as string[];
  assert.deepEqual(argv.slice(argv.indexOf('--on-stall'), argv.indexOf('--on-stall') + 2), ['--on-stall', 'exit']);
});
