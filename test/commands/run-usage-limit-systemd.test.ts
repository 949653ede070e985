import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startUserManager } from '../helpers/systemd.ts';
import { deadmanUnit } from '../helpers/units.ts';
import { tempDir, waitFor } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { argvLog, fakeAgent } from '../helpers/fake-agent.ts';

/**
 * USAGE_LIMIT under a real systemd user manager: the wait for the reset (6 s, three times
 * WatchdogSec=2s) keeps the unit up with the watchdog fed — no restart, NRestarts = 0 — with
 * the reset time in StatusText, and then the same deadman resumes the session, which completes.
 */
test('a usage-limit wait keeps the unit up with the watchdog fed (NRestarts = 0), then resumes', async (t) => {
  const manager = await startUserManager(t);
  if (!manager) return;
  const dir = tempDir(t);
  const log = join(dir, 'argv.log');
  const config = join(dir, 'deadman.toml');
  writeFileSync(config, '[usage_limit]\njitter = "500ms"\n');
  await manager.writeUnit(
    'limited.service',
    deadmanUnit({
      runArgs: ['--config', config, '--name', 'limited', '--poll', '200ms'],
      command: [process.execPath, fakeAgent, 'claude', '-p', 'the task', '--output-format', 'stream-json', '--verbose'],
      env: {
        STATE_DIRECTORY: dir,
        FAKE_AGENT_SCENARIO: 'usage-limit',
        FAKE_AGENT_LIMIT_RESET_S: '6',
        FAKE_AGENT_ARGV_LOG: log,
      },
    }),
  );
  assert.equal((await manager.systemctl('start', 'limited.service')).code, 0);
  const waiting = await manager.waitFor(
    'limited.service',
    (p) => /waiting for usage limit reset at \d\d:\d\d(:\d\d)? UTC/.test(p.StatusText ?? ''),
    15_000,
  );
  assert.equal(waiting.ActiveState, 'active');
  assert.equal(waiting.NRestarts, '0');
  await waitFor(() => argvLog(log).length >= 2, 20_000, 'the resumed agent');
  const done = await manager.waitFor(
    'limited.service',
    (p) => p.ActiveState === 'inactive' || p.ActiveState === 'failed',
    15_000,
  );
  assert.equal(done.NRestarts, '0', 'the watchdog never fired and systemd never restarted the unit');
  assert.equal(done.Result, 'success');
  assert.ok(argvLog(log)[1]!.includes('--resume'));
  const database = join(dir, 'deadman.db');
  assert.deepEqual(
    query<{ outcome: string }>(database, 'SELECT outcome FROM runs ORDER BY id').map((r) => r.outcome),
    ['usage-limit', 'completed'],
  );
});
