import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startUserManager, type UserManager } from '../helpers/systemd.ts';
import { deadmanUnit, type TestUnit } from '../helpers/units.ts';
import { tempDir, waitFor } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { probeAddon } from '../../lib/io/service/sd-notify.ts';
import { measureHostDelay } from '../helpers/host-delay.ts';

/**
 * `deadman run` under a real systemd user manager (acceptance of the run issue). The long
 * cases run side by side in one manager to keep the file near 20 s.
 */

const PATHS: Array<{ label: string; notifyAccess: 'main' | 'all'; env: Record<string, string> }> = [
  { label: 'addon', notifyAccess: 'main', env: {} },
  { label: 'systemd-notify', notifyAccess: 'all', env: { DEADMAN_NOTIFY: 'systemd-notify' } },
];

async function startUnit(manager: UserManager, name: string, spec: TestUnit): Promise<void> {
  await manager.writeUnit(name, deadmanUnit(spec));
  const started = await manager.systemctl('start', name);
  assert.equal(started.code, 0, `${name}: ${started.stderr}`);
}

test('the watchdog is fed while the child works, withheld when it stalls, on both notify paths', async (t) => {
  const manager = await startUserManager(t);
  if (!manager) return;
  assert.equal(probeAddon().loaded, true, 'the sd-notify addon must load in CI (libsystemd-dev is installed)');
  const dir = tempDir(t);
  const host = measureHostDelay();
  const started = performance.now();
  for (const path of PATHS) {
    const env = { STATE_DIRECTORY: join(dir, `state-${path.label}`), ...path.env };
    await startUnit(manager, `talker-${path.label}.service`, {
      runArgs: ['--inactivity', '3s', '--poll', '200ms'],
      command: ['sh', '-c', 'while :; do echo tick; sleep 1; done'],
      env,
      notifyAccess: path.notifyAccess,
    });
    await startUnit(manager, `silent-${path.label}.service`, {
      runArgs: ['--inactivity', '3s', '--poll', '200ms', '--name', `silent-${path.label}`],
      command: ['sh', '-c', 'echo started; exec sleep 600'],
      env,
      notifyAccess: path.notifyAccess,
    });
  }
  for (const path of PATHS) {
    const restarted = await manager.waitFor(
      `silent-${path.label}.service`,
      (p) => Number(p.NRestarts) >= 1,
      3000 + 2000 + 2000 + 1000,
    );
    assert.ok(
      performance.now() - started < host.scaled(3000 + 2000 + 2000 + 2500),
      `${path.label}: restarted after ${(performance.now() - started).toFixed(0)} ms (host ${host.stretch().toFixed(1)}× slower than idle)`,
    );
    assert.ok(Number(restarted.NRestarts) >= 1);
    const database = join(dir, `state-${path.label}`, 'deadman.db');
    await waitFor(
      () => query<{ kind: string }>(database, "SELECT kind FROM incidents WHERE kind = 'OUTPUT_INACTIVITY'").length > 0,
      5000,
      'the incident',
    );
    await waitFor(
      () =>
        query<{ outcome: string }>(
          database,
          "SELECT outcome FROM runs WHERE ended_at IS NOT NULL AND outcome = 'stalled'",
        ).length > 0,
      8000,
      'the stalled run closed by the next start',
    );
  }
  await new Promise((r) => setTimeout(r, Math.max(0, 10_500 - (performance.now() - started))));
  for (const path of PATHS) {
    const props = await manager.show(`talker-${path.label}.service`);
    assert.equal(props.ActiveState, 'active', `${path.label}: ${JSON.stringify(props)}`);
    assert.equal(props.NRestarts, '0', path.label);
    const status = await manager.status(`talker-${path.label}.service`);
    assert.match(status, /Status: "ok · last output at \d\d:\d\d · \d+ procs?"/, status);
  }
});

test('a silent child that burns CPU is not restarted within 3x the inactivity limit', async (t) => {
  const manager = await startUserManager(t);
  if (!manager) return;
  const dir = tempDir(t);
  await startUnit(manager, 'busy.service', {
    runArgs: ['--inactivity', '2s', '--poll', '200ms'],
    command: ['sh', '-c', 'echo go; while :; do :; done'],
    env: { STATE_DIRECTORY: dir },
  });
  await new Promise((r) => setTimeout(r, 6500));
  const props = await manager.show('busy.service');
  assert.equal(props.NRestarts, '0');
  assert.equal(props.ActiveState, 'active');
});

test('a child that feeds the watchdog itself does not keep a stalled unit alive', async (t) => {
  const manager = await startUserManager(t);
  if (!manager) return;
  const dir = tempDir(t);
  const socket = join(manager.env.XDG_RUNTIME_DIR!, 'systemd', 'notify');
  // A process spawning systemd-notify in a loop is busy by the inactivity rule, so the stall
  // here is evidence that never appears; the child pings for the unit with both tools.
  const config = join(dir, 'feeder.toml');
  writeFileSync(
    config,
    `[[evidence]]\nname = "report"\nkind = "file"\nroot = "${dir}"\npath = "${dir}/never.csv"\nwhen = "always"\ninterval = "500ms"\ngrace = "1s"\n`,
  );
  const feeder = join(dir, 'feeder.py');
  writeFileSync(
    feeder,
    `import socket, time\ns = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)\nwhile True:\n    s.sendto(b"WATCHDOG=1", "${socket}")\n    time.sleep(0.2)\n`,
  );
  await startUnit(manager, 'feeder.service', {
    runArgs: ['--config', config, '--poll', '200ms'],
    command: [
      'sh',
      '-c',
      `python3 ${feeder} & while :; do NOTIFY_SOCKET=${socket} systemd-notify WATCHDOG=1 2>/dev/null; sleep 0.3; done`,
    ],
    env: { STATE_DIRECTORY: dir },
  });
  const props = await manager.waitFor('feeder.service', (p) => Number(p.NRestarts) >= 1, 10_000);
  assert.ok(Number(props.NRestarts) >= 1);
  const [incident] = query<{ kind: string; message: string }>(
    join(dir, 'deadman.db'),
    "SELECT kind, message FROM incidents WHERE kind = 'EVIDENCE_STALE'",
  );
  assert.match(incident?.message ?? '', /report dead: .*never\.csv/);
});

test('systemctl stop leaves no process of the tree alive, setsid grandchildren included', async (t) => {
  const manager = await startUserManager(t);
  if (!manager) return;
  const dir = tempDir(t);
  const pidFile = join(dir, 'grandchild.pid');
  await startUnit(manager, 'stopme.service', {
    runArgs: ['--stop-grace', '2s'],
    command: [
      'sh',
      '-c',
      `trap "" TERM; setsid sh -c 'trap "" TERM; echo $$ > ${pidFile}; exec sleep 600' & sleep 600`,
    ],
    env: { STATE_DIRECTORY: dir },
  });
  const grandchild = Number(
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim(), 5000, 'the grandchild'),
  );
  const mainPid = Number((await manager.show('stopme.service')).MainPID);
  const host = measureHostDelay();
  const before = performance.now();
  const stopped = await manager.systemctl('stop', 'stopme.service');
  const elapsed = performance.now() - before;
  assert.equal(stopped.code, 0, stopped.stderr);
  assert.ok(
    elapsed < 2000 + host.scaled(1000),
    `stop took ${elapsed.toFixed(0)} ms (host ${host.stretch().toFixed(1)}× slower than idle)`,
  );
  assert.equal(existsSync(`/proc/${grandchild}`), false, 'the setsid grandchild is gone');
  assert.equal(existsSync(`/proc/${mainPid}`), false, 'deadman is gone');
  const props = await manager.show('stopme.service', ['Result', 'ActiveState']);
  assert.equal(props.Result, 'success', 'deadman re-raised SIGTERM: a clean stop');
});

test('READY=1 waits for --ready-pattern or --ready-port; never ready within --ready-timeout is a stall (exit 75)', async (t) => {
  const manager = await startUserManager(t);
  if (!manager) return;
  const dir = tempDir(t);
  const port = 20000 + (process.pid % 20000);
  const gate = (name: string) => `until [ -e ${join(dir, `gate-${name}`)} ]; do sleep 0.1; done`;
  const units: Array<[string, TestUnit]> = [
    // Each gets ready only once the test opens its gate: however slowly the host starts them, "not ready yet" is checked before.
    [
      'pattern.service',
      {
        runArgs: ['--ready-pattern', 'listening on \\d+', '--poll', '200ms'],
        command: ['sh', '-c', `echo booting; ${gate('a')}; echo listening on 8080; exec sleep 600`],
        env: { STATE_DIRECTORY: join(dir, 'a') },
      },
    ],
    [
      'port.service',
      {
        runArgs: ['--ready-port', String(port), '--poll', '200ms'],
        command: ['sh', '-c', `${gate('b')}; exec python3 -m http.server --bind 127.0.0.1 ${port}`],
        env: { STATE_DIRECTORY: join(dir, 'b') },
      },
    ],
    [
      'never.service',
      {
        runArgs: ['--ready-pattern', 'never printed', '--ready-timeout', '2s', '--poll', '200ms'],
        command: ['sh', '-c', 'echo booting; exec sleep 600'],
        env: { STATE_DIRECTORY: join(dir, 'c') },
        extra: ['Restart=no'],
      },
    ],
  ];
  for (const [name, spec] of units) {
    await manager.writeUnit(name, deadmanUnit(spec));
    assert.equal((await manager.systemctl('start', '--no-block', name)).code, 0);
  }
  await new Promise((r) => setTimeout(r, 1000));
  for (const name of ['pattern.service', 'port.service'])
    assert.equal((await manager.show(name)).ActiveState, 'activating', `${name} not ready yet`);
  for (const name of ['a', 'b']) writeFileSync(join(dir, `gate-${name}`), '');
  for (const name of ['pattern.service', 'port.service'])
    await manager.waitFor(name, (p) => p.ActiveState === 'active', 6000);
  const never = await manager.waitFor(
    'never.service',
    (p) => p.ActiveState === 'failed' || p.ActiveState === 'inactive',
    8000,
    ['ActiveState', 'ExecMainStatus'],
  );
  assert.equal(never.ExecMainStatus, '75');
  assert.equal(
    query<{ kind: string }>(join(dir, 'c', 'deadman.db'), 'SELECT kind FROM incidents')[0]?.kind,
    'NOT_READY',
  );
});

test('the watchdog guards the guard: a frozen deadman stops pinging and systemd restarts it', async (t) => {
  const manager = await startUserManager(t);
  if (!manager) return;
  const dir = tempDir(t);
  await startUnit(manager, 'frozen.service', {
    runArgs: ['--poll', '200ms'],
    command: ['sh', '-c', 'while :; do echo tick; sleep 0.5; done'],
    env: { STATE_DIRECTORY: dir },
    extra: ['TimeoutAbortSec=2s'],
  });
  const { MainPID } = await manager.waitFor('frozen.service', (p) => p.ActiveState === 'active', 5000);
  await new Promise((r) => setTimeout(r, 2500));
  assert.equal((await manager.show('frozen.service')).NRestarts, '0', 'healthy while deadman runs');
  process.kill(Number(MainPID), 'SIGSTOP'); // deadman's event loop can no longer run: no pings
  const props = await manager.waitFor('frozen.service', (p) => Number(p.NRestarts) >= 1, 2000 + 2000 + 4000, [
    'NRestarts',
    'Result',
    'MainPID',
  ]);
  assert.notEqual(props.MainPID, MainPID);
});
