import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ExitCode } from '../../lib/exit-codes.ts';
import { startUserManager } from '../helpers/systemd.ts';
import { deadmanUnit } from '../helpers/units.ts';
import { tempDir, waitFor } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { argvLog, fakeAgent } from '../helpers/fake-agent.ts';

/**
 * The whole revive loop under a real systemd user manager: a fake Codex that goes silent is
 * stalled, the watchdog kills the unit, systemd restarts it, and the new `deadman run`
 * resumes the same session with the original flags (inline revive).
 */

test('a silent agent is killed by the watchdog, restarted by systemd, and its session resumed', async (t) => {
  const manager = await startUserManager(t);
  if (!manager) return;
  const dir = tempDir(t);
  const log = join(dir, 'argv.log');
  const session = '01a23200-0000-7000-8000-00000000beef';
  const command = [
    process.execPath,
    fakeAgent,
    'codex',
    'exec',
    '--json',
    '-s',
    'workspace-write',
    '-C',
    dir,
    'write the report',
  ];
  await manager.writeUnit(
    'agent.service',
    deadmanUnit({
      runArgs: ['--name', 'agent', '--inactivity', '2s', '--poll', '200ms'],
      command,
      env: {
        STATE_DIRECTORY: dir,
        FAKE_AGENT_SCENARIO: 'silent',
        FAKE_AGENT_SESSION_ID: session,
        FAKE_AGENT_ARGV_LOG: log,
      },
      extra: [`RestartPreventExitStatus=${ExitCode.DO_NOT_RESTART}`],
    }),
  );
  assert.equal((await manager.systemctl('start', 'agent.service')).code, 0);
  const restarted = await manager.waitFor('agent.service', (p) => Number(p.NRestarts) >= 1, 15_000);
  assert.ok(Number(restarted.NRestarts) >= 1);
  await waitFor(() => argvLog(log).length >= 2, 10_000, 'the resumed agent');
  await manager.systemctl('stop', 'agent.service');

  const [first, second] = argvLog(log);
  assert.deepEqual(first, ['codex', 'exec', '--json', '-s', 'workspace-write', '-C', dir, 'write the report']);
  assert.deepEqual(second!.slice(0, 9), [
    'codex',
    'exec',
    '--json',
    '-s',
    'workspace-write',
    '-C',
    dir,
    'resume',
    session,
  ]);
  assert.match(second!.at(-1)!, /cut off by a process exit[\s\S]*The original task was:\nwrite the report$/);
  const database = join(dir, 'deadman.db');
  assert.deepEqual(query(database, 'SELECT name, session_id, attempt, budget FROM revives ORDER BY id LIMIT 1'), [
    { name: 'agent', session_id: session, attempt: 1, budget: 5 },
  ]);
  const runs = query<{ revive_of: string | null }>(
    database,
    'SELECT revive_of FROM runs WHERE name = ? ORDER BY id',
    'agent',
  );
  assert.deepEqual(
    runs.slice(0, 2).map((r) => r.revive_of),
    [null, session],
  );
  assert.ok(query(database, "SELECT id FROM incidents WHERE kind = 'OUTPUT_INACTIVITY'").length >= 1);
});
