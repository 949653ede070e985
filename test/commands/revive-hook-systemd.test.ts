import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { quoteCommandLine, quoteEnvironmentAssignment } from '../../lib/core/units/systemd-quote.ts';
import { reviveUnitName } from '../../lib/core/units/transient-unit.ts';
import { readMarker, writeMarker } from '../../lib/io/revive/markers.ts';
import { startUserManager, type UserManager } from '../helpers/systemd.ts';
import { deadmanBin, tempDir, waitFor } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { argvLog, killToolsOf } from '../helpers/fake-agent.ts';
import { interruptedCodex } from '../helpers/revive-markers.ts';
import { interruptedRollout } from '../helpers/session-file-revive.ts';

/**
 * `deadman revive` as a hook under a real user manager: run from a oneshot unit, it hands each
 * marker's session to a supervising `deadman run` in a transient unit of its own, so the resume
 * outlives the oneshot (whose cgroup is killed when it finishes) and is watched like any run.
 */

const MIN = 60_000;

/** A oneshot unit running `deadman revive` over one interrupted marker; started, it has finished. */
async function reviveFromOneshot(
  manager: UserManager,
  t: { after(fn: () => void): void },
  sessionId: string,
  toml: string,
  env: Record<string, string>,
  fromFiles = false,
) {
  const dir = tempDir(t);
  t.after(() => killToolsOf(sessionId));
  const state = join(dir, 'state');
  const config = join(dir, 'deadman.toml');
  // The session in a Codex rollout only, or in a marker.
  const files = fromFiles ? interruptedRollout(dir, sessionId, dir) : null;
  writeFileSync(
    config,
    `state_dir = ${JSON.stringify(state)}\npoll = "250ms"\n${toml}\n[revive]\ndelay = "0"\nmax_age = "1h"\nstart_timeout = "10s"\n${files?.toml ?? ''}`,
  );
  if (files === null) writeMarker(join(state, 'markers'), interruptedCodex(dir, 'agent', MIN, sessionId));
  const name = files?.name ?? 'agent';
  const log = join(dir, 'argv.log');
  const environment = Object.entries({ HOME: dir, FAKE_AGENT_ARGV_LOG: log, ...files?.env, ...env }).map(
    ([key, value]) => `Environment=${(quoteEnvironmentAssignment(key, value) as { text: string }).text}`,
  );
  const exec = quoteCommandLine([process.execPath, deadmanBin, 'revive', '--config', config]) as { text: string };
  await manager.writeUnit(
    'hook.service',
    ['[Service]', 'Type=oneshot', ...environment, `WorkingDirectory=${dir}`, `ExecStart=${exec.text}`, ''].join('\n'),
  );
  const unit = reviveUnitName(name, sessionId);
  t.after(() => manager.systemctl('stop', unit));
  const started = await manager.systemctl('start', 'hook.service');
  assert.equal(started.code, 0, started.stderr);
  const hook = await manager.show('hook.service');
  assert.deepEqual([hook.ActiveState, hook.Result], ['inactive', 'success'], 'the oneshot has finished');
  return { dir, name, unit, database: join(state, 'deadman.db'), markers: join(state, 'markers'), argvLog: log };
}

test('under systemd, revive hooks outlive their unit and are supervised', async (t) => {
  const manager = await startUserManager(t);
  if (!manager) return;

  await t.test(
    'a resume started from a oneshot unit outlives it, in a transient unit of its own, and completes',
    async (t) => {
      const session = '01a23300-0000-7000-8000-0000000000a1';
      const hook = await reviveFromOneshot(manager, t, session, 'inactivity = "1min"', {
        FAKE_AGENT_LINGER_MS: '3000',
      });
      const running = await manager.waitFor(hook.unit, (p) => p.ActiveState === 'active', 10_000, [
        'ActiveState',
        'Type',
        'NotifyAccess',
        'WatchdogUSec',
        'KillMode',
      ]);
      assert.deepEqual([running.Type, running.KillMode, running.WatchdogUSec], ['notify', 'control-group', '15s']);
      assert.match(running.NotifyAccess!, /^(main|all)$/);
      assert.equal((await manager.systemctl('start', 'hook.service')).code, 0, 'a second hook while the resume runs');
      await waitFor(
        async () => {
          const read = await readMarker(hook.markers, 'agent');
          return read.status === 'ok' && read.marker.state === 'completed';
        },
        20_000,
        'the resumed session to complete',
      );
      const [resumed] = argvLog(hook.argvLog);
      assert.deepEqual(resumed!.slice(0, 9), [
        'codex',
        'exec',
        '--json',
        '-s',
        'workspace-write',
        '-C',
        hook.dir,
        'resume',
        session,
      ]);
      assert.equal(argvLog(hook.argvLog).length, 1, 'the second hook skipped the live session');
      await waitFor(
        () => query(hook.database, "SELECT id FROM runs WHERE name = 'agent' AND exit_code IS NOT NULL").length > 0,
        10_000,
        'the run record',
      );
      assert.deepEqual(query(hook.database, "SELECT revive_of, unit, exit_code FROM runs WHERE name = 'agent'"), [
        { revive_of: session, unit: hook.unit, exit_code: 0 },
      ]);
      assert.deepEqual(
        query(hook.database, 'SELECT session_id, attempt FROM revives'),
        [{ session_id: session, attempt: 1 }],
        'counted once',
      );
    },
  );

  await t.test(
    'a session found only in a Codex rollout gets the same: a marker, a transient unit with its supervising run, one resume',
    async (t) => {
      const session = '01a23300-0000-7000-8000-0000000000a3';
      const hook = await reviveFromOneshot(
        manager,
        t,
        session,
        'inactivity = "1min"',
        { FAKE_AGENT_LINGER_MS: '3000' },
        true,
      );
      await manager.waitFor(hook.unit, (p) => p.ActiveState === 'active', 10_000, ['ActiveState']);
      assert.equal((await manager.systemctl('start', 'hook.service')).code, 0, 'a second hook while the resume runs');
      await waitFor(
        async () => {
          const read = await readMarker(hook.markers, hook.name);
          return read.status === 'ok' && read.marker.state === 'completed';
        },
        20_000,
        'the resumed session to complete',
      );
      assert.equal(argvLog(hook.argvLog).length, 1, 'the second hook skipped the live session');
      assert.deepEqual(argvLog(hook.argvLog)[0]!.slice(10, 12), ['resume', session]);
      await waitFor(
        () => query(hook.database, 'SELECT id FROM runs WHERE exit_code IS NOT NULL').length > 0,
        10_000,
        'the run record',
      );
      assert.deepEqual(query(hook.database, 'SELECT name, revive_of, unit, exit_code FROM runs'), [
        { name: hook.name, revive_of: session, unit: hook.unit, exit_code: 0 },
      ]);
      assert.deepEqual(
        query(hook.database, 'SELECT session_id, attempt FROM revives'),
        [{ session_id: session, attempt: 2 }],
        'counted once, from the file',
      );
    },
  );

  await t.test('a hung tool in the revived session is caught by its supervising run', async (t) => {
    const session = '01a23300-0000-7000-8000-0000000000a2';
    const hook = await reviveFromOneshot(
      manager,
      t,
      session,
      'auto_recover = true\nhung_timeout = "2s"\nkill_grace = "1s"\ninactivity = "1min"',
      { FAKE_AGENT_SCENARIO: 'hang-tool' },
    );
    await waitFor(
      () => query(hook.database, "SELECT id FROM runs WHERE name = 'agent' AND exit_code IS NOT NULL").length > 0,
      30_000,
      'the revived run to end',
    );
    assert.deepEqual(query(hook.database, "SELECT revive_of, exit_code FROM runs WHERE name = 'agent'"), [
      { revive_of: session, exit_code: 0 },
    ]);
    assert.deepEqual(query(hook.database, 'SELECT kind, state FROM incidents'), [
      { kind: 'HUNG_PROCESS', state: 'RESOLVED' },
    ]);
    assert.equal(argvLog(hook.argvLog)[0]![8], session);
  });
});
