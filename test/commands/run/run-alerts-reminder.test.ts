import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runAlerts } from '../../../lib/commands/run/run-alerts.ts';
import { createRedactor } from '../../../lib/core/redact/redact.ts';
import { fakeClock, settle, testConfig } from '../../supervise/fakes.ts';
import { tempDir } from '../../helpers/cli.ts';
import { loopbackSink } from '../../helpers/loopback-sink.ts';

/**
 * The run's reminders wait on the command's clock: an incident that needs a person is
 * reminded of once per `notify.reminder` while it still waits, and never once it is settled
 * or the run ended. Under a fake clock nothing moves unless the test moves it; the alerts
 * themselves reach a real webhook on loopback.
 */

const HOUR = 60 * 60_000;
const incident = { id: 7, kind: 'HUNG_PROCESS', state: 'AWAITING_APPROVAL', message: 'sleep 600 idle' };

test('an incident that waits for a person is reminded of once per reminder interval, and not after it is settled or the run ended', async (t) => {
  const sink = await loopbackSink(t);
  const time = fakeClock();
  const dir = tempDir(t);
  const notify = { ...testConfig().notify, webhook: [`${sink.url}/hook`] };
  const alerts = runAlerts({
    name: 'reminded',
    notify: () => notify,
    paths: { stateDir: dir, database: join(dir, 'deadman.db'), markerDir: join(dir, 'markers') },
    redactor: createRedactor({ env: {}, patterns: [] }),
    logger: { log: () => {} },
    clock: time.clock,
  });
  const reminders = async (): Promise<number[]> => {
    await settle();
    await alerts.settled();
    return sink.received.map((r) => (JSON.parse(r.body) as { reminder: number }).reminder);
  };

  alerts.incidentMoved({ incident, from: 'OPEN', event: 'needs_approval', reason: 'policy asks a person' });
  assert.deepEqual(await reminders(), [0], 'the alert itself');
  time.advance(HOUR - 1);
  assert.deepEqual(await reminders(), [0], 'no reminder before the interval is up');
  time.advance(1);
  assert.deepEqual(await reminders(), [0, 1]);
  time.advance(HOUR);
  assert.deepEqual(await reminders(), [0, 1, 2]);

  alerts.incidentMoved({
    incident: { ...incident, state: 'RECOVERING' },
    from: 'AWAITING_APPROVAL',
    event: 'approved',
    reason: 'approved by ann',
  });
  time.advance(3 * HOUR);
  assert.deepEqual(await reminders(), [0, 1, 2], 'settled: no more reminders');

  alerts.incidentMoved({
    incident: { ...incident, id: 8 },
    from: 'OPEN',
    event: 'needs_approval',
    reason: 'policy asks a person',
  });
  assert.deepEqual(await reminders(), [0, 1, 2, 0]);
  await alerts.ended({ exitCode: 0, reraise: 'SIGTERM' });
  time.advance(3 * HOUR);
  assert.deepEqual(await reminders(), [0, 1, 2, 0], 'the run ended: no reminder of what still waited');
});
