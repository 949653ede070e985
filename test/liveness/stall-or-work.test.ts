import { test } from 'node:test';
import assert from 'node:assert/strict';
import { INACTIVITY_MS, LIVENESS_CASES, POLL_MS, runCase, startHostNoise } from '../helpers/liveness-cases.ts';
import { measureHostDelay } from '../helpers/host-delay.ts';

// Under busy-host noise: another tree exec'ing /bin/true every 0.3 s, and a busy core. The
// timeout only guards against a hang: each case's own bound is scaled to what the host gave,
// and at a stretch of 38 (test:busy beside other work) that passed 120 s.
test(
  'idle loops and watchers stall within inactivity + 2 polls; silent work survives 3 × inactivity',
  { timeout: 600_000 },
  async (t) => {
    t.after(startHostNoise());
    const host = measureHostDelay();
    // A case that must stall ends at its stall: its --timeout only guards against a hang. Scaled here,
    // before the host was measured, it was 6.5 s, and at a load of 18 an idle watcher reached it
    // before its stall (exit 124). Silent work runs its 3 × inactivity and is ended by the timeout.
    const timeoutOf = (c: (typeof LIVENESS_CASES)[number]) =>
      c.expect === 'stall' ? 20 * (3 * INACTIVITY_MS + 500) : 3 * INACTIVITY_MS + 500;
    const results = await Promise.all(
      LIVENESS_CASES.map(async (c) => ({ c, result: await runCase(c, t, timeoutOf(c)) })),
    );
    for (const { c, result } of results) {
      if (c.expect === 'stall') {
        assert.equal(result.stalled, true, `${c.name}: never stalled (exit ${result.code}) ${result.stderr}`);
        assert.equal(result.code, 75, `${c.name}: ${result.stderr}`);
        assert.ok(
          result.latencyBeyondMs! <= host.scaled(2 * POLL_MS + 500),
          `${c.name}: stalled ${result.latencyBeyondMs} ms after ${INACTIVITY_MS} ms of inactivity (host ${host.stretch().toFixed(1)}× slower than idle)`,
        );
      } else {
        assert.equal(result.stalled, false, `${c.name}: taken for a stall: ${result.stderr}`);
        assert.notEqual(result.code, 75, c.name);
      }
    }
  },
);
