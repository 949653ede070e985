import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderUnit, unitFileName, type UnitSpec } from '../../../lib/core/units/unit-file.ts';
import { deriveTimings } from '../../../lib/core/units/unit-timings.ts';
import { NO_RESTART_CODES, DeadmanError, ExitCode } from '../../../lib/exit-codes.ts';

const settings = { inactivity: 10 * 60_000, stop_grace: 10_000, ready_timeout: 90_000 };

function spec(overrides: Partial<UnitSpec> = {}): UnitSpec {
  return {
    name: 'review',
    scope: 'system',
    nodePath: '/opt/node/bin/node',
    deadmanEntry: '/opt/deadman/bin/deadman.js',
    runArgs: ['--inactivity', '10min'],
    command: ['/usr/bin/codex', 'exec', '--json', 'fix 100% of "it"'],
    workingDirectory: '/srv/repo',
    environment: [['PATH', '/usr/bin:/bin']],
    runAs: 'agent',
    notify: { addonLoaded: true },
    settings,
    timings: deriveTimings(settings),
    writablePaths: ['/srv/repo'],
    sandbox: 'default',
    home: '/home/agent',
    maxRevives: 5,
    recordsAt: null,
    readArgs: ['--config', '/etc/deadman/review.toml'],
    ...overrides,
  };
}

function directives(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (match) out.set(match[1]!, [...(out.get(match[1]!) ?? []), match[2]!]);
  }
  return out;
}

test('a system unit carries every setting the watchdog contract needs', () => {
  const text = renderUnit(spec());
  const d = directives(text);
  assert.equal(unitFileName('review'), 'deadman-review.service');
  assert.deepEqual(d.get('Type'), ['notify']);
  assert.deepEqual(d.get('NotifyAccess'), ['main']);
  assert.deepEqual(d.get('WatchdogSec'), ['60s']);
  assert.deepEqual(d.get('Restart'), ['on-failure']);
  assert.deepEqual(d.get('RestartSec'), ['30s']);
  assert.deepEqual(d.get('RestartPreventExitStatus'), [NO_RESTART_CODES.join(' ')]);
  assert.deepEqual(d.get('KillMode'), ['control-group']);
  assert.deepEqual(d.get('TimeoutStopSec'), ['30s']);
  assert.deepEqual(d.get('User'), ['agent']);
  assert.equal(d.get('StateDirectory'), undefined, 'a non-root user keeps the database in their own home');
  assert.deepEqual(d.get('WantedBy'), ['multi-user.target']);
  assert.deepEqual(d.get('WorkingDirectory'), ['/srv/repo']);
  assert.deepEqual(d.get('ExecStart'), [
    '/opt/node/bin/node /opt/deadman/bin/deadman.js run --name review --inactivity 10min -- /usr/bin/codex exec --json "fix 100%% of \\"it\\""',
  ]);
  assert.ok(text.indexOf('StartLimitBurst') < text.indexOf('[Service]'), 'start limits belong in [Unit]');
});

test('every directive is explained by a comment above it or its group', () => {
  const lines = renderUnit(spec()).split('\n');
  const unexplained = lines.filter((line, i) => {
    if (!/^[A-Za-z]+=/.test(line) || /^(Description|SyslogIdentifier|WantedBy|Wants|After|StartLimitBurst)=/.test(line))
      return false;
    const previous = lines[i - 1] ?? '';
    return !previous.startsWith('#') && !/^[A-Za-z]+=/.test(previous);
  });
  assert.deepEqual(unexplained, []);
});

test("a user unit has no User= and starts with the user's session", () => {
  const d = directives(renderUnit(spec({ scope: 'user', runAs: null })));
  assert.equal(d.get('User'), undefined);
  assert.equal(d.get('StateDirectory'), undefined);
  assert.equal(d.get('Wants'), undefined, 'network-online.target does not exist in a user manager');
  assert.deepEqual(d.get('WantedBy'), ['default.target']);
});

test('a user unit states where its database is: ~/.local/state for a user, /var/lib/deadman for root', () => {
  assert.match(renderUnit(spec({ scope: 'user', runAs: 'alice' })), /database stays in ~\/\.local\/state\/deadman/);
  const root = renderUnit(spec({ scope: 'user', runAs: 'root' }));
  assert.match(root, /database stays in \/var\/lib\/deadman/);
  assert.doesNotMatch(root, /\.local\/state/);
});

test("root runs keep state in StateDirectory=, where root's report looks", () => {
  assert.deepEqual(directives(renderUnit(spec({ runAs: 'root' }))).get('StateDirectory'), ['deadman']);
  assert.deepEqual(
    directives(renderUnit(spec({ runAs: 'root' }))).get('CacheDirectory'),
    ['deadman'],
    'the compile cache outlives PrivateTmp=',
  );
});

test('NotifyAccess=all only when the addon cannot load, and the unit says why', () => {
  const text = renderUnit(spec({ notify: { addonLoaded: false, why: 'sd-notify is not installed' } }));
  assert.deepEqual(directives(text).get('NotifyAccess'), ['all']);
  assert.match(text, /without the sd-notify addon \(sd-notify is not installed\) deadman notifies through/);
});

test('refuses bad names and unquotable arguments with a usage error naming the culprit', () => {
  const cases: Array<[Partial<UnitSpec>, RegExp]> = [
    [{ name: 'a@b' }, /--name "a@b"/],
    [{ name: '' }, /--name/],
    [{ command: ['/bin/echo', 'multi\nline'] }, /the command: argument 2 .*line break/],
    [{ workingDirectory: '/srv/a\nb' }, /working directory/],
    [{ environment: [['BAD-NAME', 'x']] }, /BAD-NAME/],
  ];
  for (const [override, message] of cases) {
    assert.throws(
      () => renderUnit(spec(override)),
      (error: unknown) =>
        error instanceof DeadmanError && error.exitCode === ExitCode.USAGE && message.test(error.message),
    );
  }
});

test('specifiers in names and paths are escaped', () => {
  const d = directives(renderUnit(spec({ workingDirectory: '/srv/100%', environment: [['PATH', '/a b:/c$']] })));
  assert.deepEqual(d.get('WorkingDirectory'), ['/srv/100%%']);
  assert.deepEqual(d.get('Environment'), ['"PATH=/a b:/c$"']);
});

test('generated units are sandboxed, writing only HOME, the work and the records', () => {
  const d = directives(renderUnit(spec({ writablePaths: ['/srv/repo', '/srv/state', '/srv/repo'] })));
  assert.deepEqual(d.get('ProtectSystem'), ['strict']);
  assert.deepEqual(d.get('ReadWritePaths'), ['/home/agent /srv/repo /srv/state']);
  assert.deepEqual(d.get('NoNewPrivileges'), ['yes']);
  assert.deepEqual(d.get('PrivateTmp'), ['yes']);
  assert.equal(d.get('MemoryDenyWriteExecute'), undefined, 'Node needs writable executable memory for its JIT');
  assert.equal(d.get('RestrictNamespaces'), undefined, 'agent sandboxes create namespaces');
  assert.deepEqual(d.get('CapabilityBoundingSet'), [''], 'User=agent needs no capabilities');
  assert.match(
    directives(renderUnit(spec({ runAs: 'root' }))).get('CapabilityBoundingSet')?.[0] ?? '',
    /^~CAP_SYS_MODULE /,
    'root keeps root but for what no job needs',
  );
  const user = directives(renderUnit(spec({ scope: 'user', runAs: null })));
  assert.deepEqual(
    [user.get('PrivateUsers'), user.get('CapabilityBoundingSet')],
    [['yes'], ['']],
    'a user manager drops capabilities only inside a user namespace',
  );
});

test('work or records under /tmp keep the shared /tmp; an unlistable path is a usage error', () => {
  assert.equal(directives(renderUnit(spec({ writablePaths: ['/tmp/job'] }))).get('PrivateTmp'), undefined);
  assert.equal(
    directives(renderUnit(spec({ writablePaths: ['/srv/repo', '/var/tmp/db'] }))).get('PrivateTmp'),
    undefined,
  );
  assert.deepEqual(directives(renderUnit(spec({ writablePaths: ['/srv/100%'] }))).get('ReadWritePaths'), [
    '/home/agent /srv/100%%',
  ]);
  assert.equal(
    directives(renderUnit(spec({ nodePath: '/tmp/clone/node_modules/node/bin/node' }))).get('PrivateTmp'),
    undefined,
    'deadman itself must stay reachable',
  );
  assert.deepEqual(directives(renderUnit(spec({ writablePaths: ['/srv/my repo'] }))).get('ReadWritePaths'), [
    '/home/agent "/srv/my repo"',
  ]);
  assert.throws(
    () => renderUnit(spec({ writablePaths: ['/srv/a\nb'] })),
    (error: unknown) =>
      error instanceof DeadmanError && error.exitCode === ExitCode.USAGE && /ReadWritePaths/.test(error.message),
  );
});

test('a [metrics] textfile directory is writable if it exists, and never keeps the unit from starting', () => {
  const d = directives(renderUnit(spec({ sharedWritablePaths: ['/var/lib/prometheus/node-exporter', '/srv/repo'] })));
  assert.deepEqual(d.get('ReadWritePaths'), ['/home/agent /srv/repo -/var/lib/prometheus/node-exporter']);
  assert.deepEqual(directives(renderUnit(spec())).get('ReadWritePaths'), ['/home/agent /srv/repo']);
});

test('work under /tmp keeps the shared /tmp and /var/tmp writable, elsewhere they are private', () => {
  assert.deepEqual(directives(renderUnit(spec({ writablePaths: ['/tmp/job'] }))).get('ReadWritePaths'), [
    '/home/agent /tmp/job -/tmp -/var/tmp',
  ]);
  assert.deepEqual(directives(renderUnit(spec({ writablePaths: ['/srv/repo'] }))).get('ReadWritePaths'), [
    '/home/agent /srv/repo',
  ]);
});

test('a --user unit has only directives a user manager applies and still hears READY=1 under', () => {
  const user = directives(renderUnit(spec({ scope: 'user', runAs: null })));
  for (const key of [
    'PrivateDevices',
    'ProtectKernelModules',
    'ProtectClock',
    'ProtectControlGroups',
    'ProtectProc',
    'User',
  ]) {
    assert.equal(user.get(key), undefined, key);
  }
  const system = directives(renderUnit(spec()));
  for (const key of ['PrivateDevices', 'ProtectKernelModules', 'ProtectClock', 'ProtectControlGroups', 'ProtectProc'])
    assert.ok(system.has(key), key);
});

test('--sandbox: off writes no sandboxing, strict adds to default', () => {
  const sandboxing =
    /^(NoNewPrivileges|Protect[A-Za-z]+|Private[A-Za-z]+|Restrict[A-Za-z]+|ReadWritePaths|LockPersonality|SystemCall[A-Za-z]+|CapabilityBoundingSet|UMask)=/;
  assert.deepEqual(
    renderUnit(spec({ sandbox: 'off' }))
      .split('\n')
      .filter((l) => sandboxing.test(l)),
    [],
  );
  const strict = directives(renderUnit(spec({ sandbox: 'strict', runAs: 'root' })));
  assert.deepEqual(strict.get('RestrictNamespaces'), ['yes']);
  assert.deepEqual(strict.get('CapabilityBoundingSet'), [''], 'strict: not even root keeps capabilities');
  assert.deepEqual(strict.get('SystemCallFilter'), ['@system-service']);
  assert.equal(
    directives(renderUnit(spec())).get('RestrictNamespaces'),
    undefined,
    'default: agent sandboxes (bubblewrap) still work',
  );
});

test('StartLimitBurst= leaves room for every revive and the start that gives up (exit 69)', () => {
  for (const maxRevives of [0, 1, 5, 20]) {
    const burst = Number(directives(renderUnit(spec({ maxRevives }))).get('StartLimitBurst')?.[0]);
    assert.ok(burst > maxRevives + 1, `max_revives ${maxRevives}: StartLimitBurst ${burst}`);
  }
  assert.match(renderUnit(spec({ maxRevives: 20 })), /20 revives \(revive\.max_revives\)/);
});

test('after the main process ended, however, a reader settles the run with the same config and records; its exit is ignored', () => {
  assert.deepEqual(
    directives(
      renderUnit(spec({ readArgs: ['--config', '/etc/deadman/review.toml', '--state-dir', '/srv/state'] })),
    ).get('ExecStopPost'),
    [
      '-/opt/node/bin/node /opt/deadman/bin/deadman.js health --quiet --settle --name review --config /etc/deadman/review.toml --state-dir /srv/state',
    ],
  );
});

test('systemctl reload reaches deadman as SIGHUP', () => {
  assert.deepEqual(directives(renderUnit(spec())).get('ExecReload'), ['/bin/kill -HUP $MAINPID']);
});

test('records kept where the generating shell said are named in the unit, and replace StateDirectory=', () => {
  const text = renderUnit(spec({ runAs: 'root', recordsAt: '/srv/state' }));
  assert.match(text, /^# The records stay in \/srv\/state, as generated/m);
  assert.equal(directives(text).get('StateDirectory'), undefined);
});

test("a system unit names User='s own HOME writable: %h there is root's, whatever User= says", () => {
  assert.deepEqual(directives(renderUnit(spec({ home: '/home/agent' }))).get('ReadWritePaths'), [
    '/home/agent /srv/repo',
  ]);
  assert.deepEqual(directives(renderUnit(spec({ scope: 'user', runAs: null, home: '%h' }))).get('ReadWritePaths'), [
    '%h /srv/repo',
  ]);
});
