import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HUNG_TIMEOUT_MS, hungToolKillDelay, startHostNoise } from '../helpers/liveness-cases.ts';

// Issue 25: the agent's own helper (`sleep 601`, its direct child in a session of its own) born
// 0–5 s before the first tool call must never be taken for the hung tool, and the real hung tool
// must still be killed. Ten runs, two at a time, under busy-host noise; half of them in Codex's
// order (the tool spawned 1.5 s before its event), half with the event first.
const LEADS_MS = [0, 500, 1_000, 1_500, 2_000, 2_500, 3_000, 4_000, 5_000, 1_500];
const AT_ONCE = 2;

test(
  'a helper started 0–5 s before the first tool call is never killed; the hung tool is, 10 runs out of 10',
  { timeout: 240_000 },
  async (t) => {
    t.after(startHostNoise());
    const misses: string[] = [];
    for (let i = 0; i < LEADS_MS.length; i += AT_ONCE) {
      const batch = await Promise.all(
        LEADS_MS.slice(i, i + AT_ONCE).map(async (lead, j) => {
          const eventDelay = (i + j) % 2 === 0 ? '1500' : '0';
          const run = await hungToolKillDelay(t, {
            FAKE_AGENT_HELPER_LEAD_MS: String(lead),
            FAKE_AGENT_TOOL_EVENT_DELAY_MS: eventDelay,
          });
          return { lead, eventDelay, ...run };
        }),
      );
      for (const { lead, eventDelay, delayMs, stderr } of batch) {
        const what = `helper ${lead} ms before the call, event delay ${eventDelay} ms`;
        if (/HUNG_PROCESS: sleep 601/.test(stderr))
          misses.push(`${what}: the helper was taken for the hung tool: ${stderr}`);
        else if (delayMs === null) misses.push(`${what}: the hung tool was never killed: ${stderr}`);
        else if (delayMs > HUNG_TIMEOUT_MS + 2_000) misses.push(`${what}: killed only after ${delayMs.toFixed(0)} ms`);
      }
    }
    assert.deepEqual(misses, []);
  },
);
