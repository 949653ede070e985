import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clockTime, isHealthy, statusLine, type RunSnapshot } from '../../../lib/core/status/service-status-line.ts';

const healthy: RunSnapshot = {
  now: 10_000,
  wallNow: Date.UTC(2026, 11, 1, 21, 14, 7),
  adapter: 'codex',
  sessionId: '019a2301-3bc1-7e73',
  lastOutputAt: 6_000,
  processCount: 3,
  evidence: { alive: 2, total: 2, failing: null },
  stall: null,
  awaitingApproval: null,
  recovering: null,
  loopOverdue: false,
};

test('the ok sentence names the session, the time of the last event, the tree and the evidence', () => {
  const lastAt = clockTime(Date.UTC(2026, 11, 1, 21, 14, 3));
  assert.match(lastAt, /^\d\d:14$/);
  assert.equal(statusLine(healthy), `ok · codex session 019a2301… · last event at ${lastAt} · 3 procs · evidence 2/2`);
  assert.equal(
    statusLine({ ...healthy, now: 20_000, wallNow: healthy.wallNow + 10_000 }),
    statusLine(healthy),
    'nothing new: the same, still true sentence',
  );
  assert.equal(isHealthy(healthy), true);
});

test('a stall, failing evidence or an overdue loop withholds the watchdog', () => {
  const stalled = { ...healthy, stall: { message: 'no output for 30m 0s', action: 'withhold' as const } };
  assert.equal(statusLine(stalled), 'STALLED · no output for 30m 0s · withholding watchdog');
  assert.equal(isHealthy(stalled), false);
  const evidence = { ...healthy, evidence: { alive: 1, total: 2, failing: 'export: export.csv is 0 bytes' } };
  assert.equal(isHealthy(evidence), false);
  assert.match(statusLine(evidence), /^EVIDENCE · export/);
  assert.equal(isHealthy({ ...healthy, loopOverdue: true }), false);
});

test('awaiting approval is reported but stays healthy (documented choice)', () => {
  const waiting = { ...healthy, awaitingApproval: 'hung: sleep 600 (pid 42) idle 1m 0s' };
  assert.equal(isHealthy(waiting), true);
  assert.match(statusLine(waiting), /^AWAITING APPROVAL · hung: sleep 600/);
});
