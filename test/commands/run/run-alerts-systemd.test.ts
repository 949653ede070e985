import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, waitFor } from '../../helpers/cli.ts';
import { loopbackSink } from '../../helpers/loopback-sink.ts';
import { startUserManager } from '../../helpers/systemd.ts';
import { deadmanUnit } from '../../helpers/units.ts';

/**
 * Under a real user manager a stall withholds the watchdog and sends WATCHDOG=trigger, and
 * systemd kills deadman at once: the stall's alert must be out before that, or it never leaves.
 */
test('a stall under systemd: the alert reaches the sinks before the watchdog kill and restart', async (t) => {
  const manager = await startUserManager(t);
  if (!manager) return;
  const sink = await loopbackSink(t);
  const dir = tempDir(t);
  const config = join(dir, 'deadman.toml');
  writeFileSync(
    config,
    `[notify]\nwebhook = ["${sink.url}/hook"]\nhealthchecks = "${sink.url}/ping/abc"\ntimeout = "3s"\n`,
  );
  await manager.writeUnit(
    'stall-alert.service',
    deadmanUnit({
      runArgs: ['--config', config, '--name', 'stall-alert', '--inactivity', '3s', '--poll', '200ms'],
      command: ['sh', '-c', 'echo started; exec sleep 600'],
      env: { STATE_DIRECTORY: dir },
    }),
  );
  const started = await manager.systemctl('start', 'stall-alert.service');
  assert.equal(started.code, 0, started.stderr);
  const restarted = await manager.waitFor('stall-alert.service', (p) => Number(p.NRestarts) >= 1, 15_000);
  assert.ok(Number(restarted.NRestarts) >= 1);
  const hook = await waitFor(() => sink.received.find((r) => r.path === '/hook'), 5_000, 'the stall alert');
  const alert = JSON.parse(hook.body) as { event: string; incident: { kind: string; state: string } };
  assert.deepEqual(
    [alert.event, alert.incident.kind, alert.incident.state],
    ['incident', 'OUTPUT_INACTIVITY', 'ESCALATED'],
  );
  assert.ok(
    sink.received.some((r) => r.path === '/ping/abc/fail'),
    JSON.stringify(sink.received.map((r) => r.path)),
  );
});
