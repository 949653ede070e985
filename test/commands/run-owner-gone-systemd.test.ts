import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startUserManager } from '../helpers/systemd.ts';
import { deadmanUnit } from '../helpers/units.ts';
import { runDeadman, tempDir } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { fakeAgent } from '../helpers/fake-agent.ts';
import { parsePrometheus } from '../helpers/prometheus.ts';

/**
 * A deadman the systemd watchdog killed, under a real user manager: its agent hangs in a tool
 * (HUNG_PROCESS, AWAITING_APPROVAL: no --auto-recover), then goes silent (OUTPUT_INACTIVITY),
 * deadman withholds the pings, and systemd aborts it (Result=watchdog, no restart). The first
 * read after that says so: status `killed` (exit 1), health 1, metrics not running, the waiting
 * incident ABANDONED.
 */
test('a unit killed by the watchdog reads as killed at once, its waiting incident ABANDONED', async (t) => {
  const manager = await startUserManager(t);
  if (!manager) return;
  const dir = tempDir(t);
  await manager.writeUnit(
    'aborted.service',
    deadmanUnit({
      runArgs: [
        '--name',
        'aborted',
        '--adapter',
        'codex',
        '--poll',
        '200ms',
        '--hung-timeout',
        '1s',
        '--inactivity',
        '4s',
      ],
      command: [process.execPath, fakeAgent, 'codex', 'exec', '--json', 'fix the tests'],
      env: { STATE_DIRECTORY: dir, FAKE_AGENT_SCENARIO: 'hang-tool', FAKE_AGENT_TOOL: 'sleep 600' },
      extra: ['Restart=no', 'TimeoutAbortSec=2s'],
    }),
  );
  assert.equal((await manager.systemctl('start', 'aborted.service')).code, 0);
  const aborted = await manager.waitFor(
    'aborted.service',
    (p) => p.Result === 'watchdog' && (p.ActiveState === 'failed' || p.ActiveState === 'inactive'),
    30_000,
  );
  assert.equal(aborted.NRestarts, '0');

  const env = { ...process.env, DEADMAN_CONFIG: '', NOTIFY_SOCKET: '', STATE_DIRECTORY: dir };
  const health = await runDeadman(['health', '--name', 'aborted'], { env });
  assert.equal(health.code, 1, health.stdout);
  const metrics = await runDeadman(['metrics'], { env });
  const sample = (name: string) =>
    parsePrometheus(metrics.stdout).samples.find((s) => s.name === name && s.labels.name === 'aborted')?.value;
  assert.deepEqual([sample('deadman_run_running'), sample('deadman_run_healthy')], [0, 0], metrics.stdout);
  const status = await runDeadman(['status', '--json'], { env });
  assert.equal(status.code, 1);
  assert.equal((JSON.parse(status.stdout) as Array<{ state: string }>)[0]!.state, 'killed', status.stdout);

  const database = join(dir, 'deadman.db');
  assert.deepEqual(
    query<{ kind: string; state: string }>(database, 'SELECT kind, state FROM incidents ORDER BY id').map((r) => ({
      ...r,
    })),
    [
      { kind: 'HUNG_PROCESS', state: 'ABANDONED' },
      { kind: 'OUTPUT_INACTIVITY', state: 'ESCALATED' },
    ],
  );
  assert.deepEqual(
    query<{ outcome: string; signal: string }>(database, 'SELECT outcome, signal FROM runs').map((r) => ({ ...r })),
    [{ outcome: 'stalled', signal: 'watchdog' }],
    'the stall it recorded stays its outcome; the watchdog ended it',
  );
});
