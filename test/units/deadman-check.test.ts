import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, runProgram, tempDir } from '../helpers/cli.ts';

const units = ['deadman-check.service', 'deadman-check.timer', 'deadman-check-notify.service'];
const analyze = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find((p) => existsSync(p));
const read = (name: string) => readFileSync(join(repoRoot, 'units', name), 'utf8');

test(
  'systemd accepts the check units',
  { skip: !analyze && !process.env.DEADMAN_REQUIRE_SYSTEMD && 'systemd-analyze is not installed' },
  async (t) => {
    const dir = tempDir(t);
    // verify insists that ExecStart= exists; /usr/bin/deadman is where an install puts it.
    for (const name of units) writeFileSync(join(dir, name), read(name).replaceAll('/usr/bin/deadman', '/bin/true'));
    const result = await runProgram(analyze ?? 'systemd-analyze', [
      'verify',
      '--man=no',
      ...units.map((u) => join(dir, u)),
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
  },
);

test('the service runs deadman check once; the timer is hourly and catches up after downtime', () => {
  const service = read('deadman-check.service');
  assert.match(service, /^Type=oneshot$/m);
  assert.match(service, /^ExecStart=\/usr\/bin\/deadman check$/m);
  assert.match(service, /^OnFailure=deadman-check-notify\.service$/m);
  assert.match(
    read('deadman-check-notify.service'),
    /^ExecStart=\/usr\/bin\/deadman notify fail --config \/etc\/deadman\/deadman\.toml --name deadman-check$/m,
  );
  const timer = read('deadman-check.timer');
  assert.match(timer, /^OnCalendar=hourly$/m);
  assert.match(timer, /^Persistent=true$/m);
});

test('every setting (or pair of settings) says why in the comment above it', () => {
  const isSetting = (line: string) => /^[A-Za-z]+=/.test(line);
  for (const name of units) {
    const lines = read(name).split('\n');
    lines.forEach((line, i) => {
      if (!isSetting(line)) return;
      let above = i - 1;
      while (above >= 0 && isSetting(lines[above]!)) above--;
      assert.ok(i - above <= 2 && lines[above]?.startsWith('#'), `${name}: ${line} has no comment`);
    });
  }
});
