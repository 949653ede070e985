import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deriveTimings, describeWatchdog } from '../../../lib/core/units/unit-timings.ts';

const base = { inactivity: 30 * 60_000, stop_grace: 10_000, ready_timeout: 90_000 };

test('derives the watchdog from inactivity, clamped to 5s–60s', () => {
  const cases: Array<[number, number]> = [
    [30 * 60_000, 60_000],
    [2 * 60_000, 30_000],
    [20_000, 5_000],
    [3_000, 5_000],
    [0, 60_000],
    [4 * 60_000 + 2, 60_000],
  ];
  for (const [inactivity, watchdog] of cases) {
    assert.equal(deriveTimings({ ...base, inactivity }).watchdogMs, watchdog, `inactivity ${inactivity}`);
  }
});

test('stop and start timeouts stay above what deadman waits for itself', () => {
  const t = deriveTimings({ ...base, stop_grace: 45_000, ready_timeout: 5 * 60_000 });
  assert.ok(t.stopTimeoutMs > 45_000);
  assert.ok(t.startTimeoutMs > 5 * 60_000);
  assert.equal(deriveTimings(base).stopTimeoutMs, 30_000);
  assert.equal(deriveTimings({ ...base, stop_grace: 1500 }).stopTimeoutMs % 1000, 0, 'whole seconds');
});

test("overrides win, and restarts are never systemd's 100 ms by default", () => {
  assert.equal(deriveTimings(base).restartMs, 30_000);
  const t = deriveTimings(base, { watchdogMs: 2_000, restartMs: 1_000 });
  assert.equal(t.watchdogMs, 2_000);
  assert.equal(t.restartMs, 1_000);
});

test('the watchdog comment states when a stall is acted on', () => {
  const lines = describeWatchdog(base, deriveTimings(base));
  assert.match(lines.join(' '), /pings every 30s/);
  assert.match(lines.join(' '), /no output for 30min/);
  assert.match(lines.join(' '), /about 31min after its last output/);
  const off = describeWatchdog({ ...base, inactivity: 0 }, deriveTimings({ ...base, inactivity: 0 }));
  assert.match(off.join(' '), /inactivity is off/);
});
