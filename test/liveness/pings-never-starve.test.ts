import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startUserManager } from '../helpers/systemd.ts';
import { deadmanUnit } from '../helpers/units.ts';
import { repoRoot, tempDir } from '../helpers/cli.ts';
import { startHostNoise } from '../helpers/liveness-cases.ts';

/**
 * Issue 11, "pings never starve": a healthy agent printing valid events flat out, under
 * WatchdogSec=2s with both cores busy, is never restarted by the watchdog. One 180 s run,
 * judged per 60 s window: the stream must keep flowing in each (or the test proves nothing)
 * and the unit must stay active with NRestarts=0 throughout.
 */

const WINDOWS = 3;
const WINDOW_MS = 60_000;
const flood = join(repoRoot, 'dist', 'test', 'fixtures', 'claude-flood.js');

test(
  'a flat-out stream of valid Claude events under WatchdogSec=2s, both cores busy: NRestarts = 0 over 3 × 60 s',
  { timeout: WINDOWS * WINDOW_MS + 60_000 },
  async (t) => {
    const manager = await startUserManager(t);
    if (!manager) return;
    const dir = tempDir(t);
    t.after(startHostNoise({ busyCores: 2 }));
    const countFile = join(dir, 'printed');
    await manager.writeUnit(
      'chatty.service',
      deadmanUnit({
        runArgs: ['--adapter', 'claude', '--inactivity', '30s'],
        command: [process.execPath, flood, countFile],
        env: { STATE_DIRECTORY: join(dir, 'state') },
        watchdogSec: '2s',
        // Megabytes a second of events: not into the manager's shared log.
        extra: ['StandardOutput=null', `StandardError=append:${join(dir, 'deadman.err')}`],
      }),
    );
    assert.equal((await manager.systemctl('start', 'chatty.service')).code, 0);
    const { MainPID } = await manager.waitFor('chatty.service', (p) => p.ActiveState === 'active', 10_000);
    const printed = () => (existsSync(countFile) ? Number(readFileSync(countFile, 'utf8')) || 0 : 0);
    for (let window = 1; window <= WINDOWS; window++) {
      const before = printed();
      const ends = performance.now() + WINDOW_MS;
      while (performance.now() < ends) {
        const props = await manager.show('chatty.service');
        const why = () => `window ${window}: ${JSON.stringify(props)}; deadman said: ${stderrTail(dir)}`;
        assert.equal(props.NRestarts, '0', why());
        assert.equal(props.ActiveState, 'active', why());
        assert.equal(props.MainPID, MainPID, why());
        await new Promise((r) => setTimeout(r, 500));
      }
      const events = printed() - before;
      t.diagnostic(`window ${window}: ${events} events in ${WINDOW_MS / 1000} s`);
      // About 10,000 a minute on 2 loaded cores with a database row per event; a starved or wedged loop gets none through.
      assert.ok(events > 1_000, `window ${window}: only ${events} events flowed`);
    }
  },
);

function stderrTail(dir: string): string {
  const file = join(dir, 'deadman.err');
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').slice(-3).join(' | ') : 'nothing';
}
