import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HUNG_TIMEOUT_MS, hungToolKillDelay, startHostNoise } from '../helpers/liveness-cases.ts';

const RUNS = 20;
const AT_ONCE = 4;

// Codex starts the command, then prints item.started: a poll in that gap must not make the
// tool a baseline helper. 20 runs, four at a time, under busy-host noise.
test(
  'a tool spawned 1.5 s before its event is killed within hung_timeout + 2 s, 20 runs out of 20',
  { timeout: 240_000 },
  async (t) => {
    t.after(startHostNoise());
    const delays: Array<number | null> = [];
    for (let i = 0; i < RUNS; i += AT_ONCE) {
      const batch = await Promise.all(Array.from({ length: Math.min(AT_ONCE, RUNS - i) }, () => hungToolKillDelay(t)));
      for (const { delayMs, stderr } of batch) {
        assert.ok(delayMs !== null, `the hung tool was never killed: ${stderr}`);
        delays.push(delayMs);
      }
    }
    const late = delays.filter((d) => d! > HUNG_TIMEOUT_MS + 2000);
    assert.deepEqual(
      late,
      [],
      `killed too late in ${late.length} of ${RUNS} runs: ${delays.map((d) => d!.toFixed(0)).join(' ')}`,
    );
  },
);
