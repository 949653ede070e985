import { test } from 'node:test';
import assert from 'node:assert/strict';
import { notifyUnitFileName, onFailureTarget, renderNotifyUnit } from '../../../lib/core/units/on-failure-unit.ts';
import { DeadmanError } from '../../../lib/exit-codes.ts';

test('--on-failure alone names the companion unit, with a name that unit, without nothing', () => {
  assert.equal(onFailureTarget('review', undefined), null);
  assert.equal(onFailureTarget('review', ''), 'deadman-review-notify.service');
  assert.equal(onFailureTarget('review', 'page-me@review.service'), 'page-me@review.service');
  for (const bad of ['page me.service', 'page-me', '../x.service', 'x.exe']) {
    assert.throws(
      () => onFailureTarget('review', bad),
      (e: unknown) => e instanceof DeadmanError && e.exitCode === 64 && /is not a unit name/.test(e.message),
      bad,
    );
  }
});

test("the companion reports and alerts as the job's user, with the job's config and records, never hiding the report behind a failed alert", () => {
  const text = renderNotifyUnit({
    name: 'review',
    nodePath: '/opt/node/bin/node',
    deadmanEntry: '/opt/deadman/bin/deadman.js',
    workingDirectory: '/srv/repo',
    environment: [
      ['PATH', '/usr/bin:/bin'],
      ['TOKEN', 'a b'],
    ],
    readArgs: ['--config', '/etc/deadman/review.toml', '--database', '/srv/db/deadman.db'],
    runAs: 'agent',
    sandbox: 'default',
    writablePaths: ['/srv/repo', '/srv/db'],
    home: '/home/agent',
  });
  assert.equal(notifyUnitFileName('review'), 'deadman-review-notify.service');
  const lines = text.split('\n');
  const args = '--name review --config /etc/deadman/review.toml --database /srv/db/deadman.db';
  for (const line of [
    'Type=oneshot',
    'SyslogIdentifier=deadman-review',
    'User=agent',
    'WorkingDirectory=/srv/repo',
    'Environment=PATH=/usr/bin:/bin',
    'Environment="TOKEN=a b"',
    `ExecStart=/opt/node/bin/node /opt/deadman/bin/deadman.js report latest ${args}`,
    `ExecStart=-/opt/node/bin/node /opt/deadman/bin/deadman.js notify fail ${args}`,
  ]) {
    assert.ok(lines.includes(line), `missing ${line}\n${text}`);
  }
  assert.ok(
    lines.indexOf(`ExecStart=/opt/node/bin/node /opt/deadman/bin/deadman.js report latest ${args}`) <
      lines.findIndex((l) => l.startsWith('ExecStart=-')),
    'the report comes first',
  );
  const user = renderNotifyUnit({
    name: 'x',
    nodePath: '/n',
    deadmanEntry: '/d',
    workingDirectory: '/w',
    environment: [],
    readArgs: [],
    runAs: null,
    sandbox: 'default',
    writablePaths: ['/w'],
    home: '%h',
  });
  assert.doesNotMatch(user, /^User=/m, "a user unit runs as its manager's user");
});
