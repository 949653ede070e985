import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planUsageWait, usageResetAt, usageWaitStatus } from '../../../lib/core/detect/usage-limit.ts';
import { usageLimitOf } from '../../../lib/core/adapters/codex-usage-limit.ts';
import { createClaudeAdapter } from '../../../lib/core/adapters/claude.ts';

const NOW = Date.UTC(2026, 11, 2, 10, 40, 0);
const HOUR = 3_600_000;

test('the reset: the stated epoch time, else the stated delay counted from when it was said', () => {
  assert.equal(
    usageResetAt({ resetsAtSec: NOW / 1000 + 60, resetsInSec: 5, message: '', at: 0 }, 10_000, NOW),
    NOW + 60_000,
  );
  // Said 4 s ago (monotonic 6 000 → 10 000) with 10 s to go: 6 s from now.
  assert.equal(usageResetAt({ resetsAtSec: null, resetsInSec: 10, message: '', at: 6_000 }, 10_000, NOW), NOW + 6_000);
  assert.equal(usageResetAt({ resetsAtSec: null, resetsInSec: null, message: '', at: 0 }, 10_000, NOW), null);
});

test('planUsageWait: reset plus jitter within max_wait; beyond it, or with no reset time, no wait and a reason', () => {
  const limits = { maxWaitMs: 6 * HOUR, jitterMs: 30_000, backoffMs: 15_000 };
  const none = { count: 0, waitedMs: 0 };
  const at = (resetAt: number | null) => ({ resetAt, throttle: false });
  assert.deepEqual(planUsageWait(at(NOW + 3 * HOUR), none, NOW, limits, 0.5), {
    wait: true,
    resumeAt: NOW + 3 * HOUR + 15_000,
    backoff: false,
  });
  assert.deepEqual(
    planUsageWait(at(NOW - 1_000), none, NOW, limits, 0),
    { wait: true, resumeAt: NOW, backoff: false },
    'a reset already past: resume now',
  );
  const far = planUsageWait(at(NOW + 7 * 24 * HOUR), none, NOW, limits, 0);
  assert.equal(far.wait, false);
  assert.match(!far.wait ? far.reason : '', /resets at 10:40 UTC, beyond usage_limit\.max_wait \(6h\) from now/);
  // No reset known: a bounded backoff (15 min, 30 min, 1 h, 2 h within max_wait), not an exit.
  assert.deepEqual(planUsageWait(at(null), none, NOW, limits, 0), {
    wait: true,
    resumeAt: NOW + 15 * 60_000,
    backoff: true,
  });
  assert.deepEqual(planUsageWait(at(null), { count: 2, waitedMs: 45 * 60_000 }, NOW, limits, 0), {
    wait: true,
    resumeAt: NOW + HOUR,
    backoff: true,
  });
  assert.deepEqual(planUsageWait(at(null), { count: 4, waitedMs: 225 * 60_000 }, NOW, limits, 0).wait, false);
  // A throttle never becomes "do not restart", even with a reset time it did not give.
  const throttle = { resetAt: null, throttle: true };
  assert.deepEqual(planUsageWait(throttle, { count: 3, waitedMs: 105_000 }, NOW, limits, 0), {
    wait: true,
    resumeAt: NOW + 120_000,
    backoff: true,
  });
  const spent = planUsageWait(throttle, { count: 4, waitedMs: 225_000 }, NOW, limits, 0);
  assert.ok(!spent.wait && spent.restart, 'past the bound a throttle asks for a restart (75), not 69');
  // A throttle that stated its delay ("try again in 1.898s"): that delay, up to a tenth more, not `backoff`; still bounded.
  const stated = { resetAt: NOW + 1_898, throttle: true };
  assert.deepEqual(planUsageWait(stated, none, NOW, limits, 0), { wait: true, resumeAt: NOW + 1_898, backoff: true });
  assert.deepEqual(planUsageWait(stated, none, NOW, limits, 0.5), {
    wait: true,
    resumeAt: NOW + 1_898 + 94,
    backoff: true,
  });
  assert.deepEqual(
    planUsageWait({ resetAt: NOW - 5, throttle: true }, none, NOW, limits, 0.9),
    { wait: true, resumeAt: NOW, backoff: true },
    'already past: at once',
  );
  const statedSpent = planUsageWait(stated, { count: 4, waitedMs: 8_000 }, NOW, limits, 0);
  assert.ok(!statedSpent.wait && statedSpent.restart);
});

test('the STATUS while waiting names the reset time in UTC and what is left', () => {
  assert.equal(
    usageWaitStatus(Date.UTC(2026, 11, 2, 14, 0, 0), NOW),
    'waiting for usage limit reset at 14:00 UTC (in 3h 20min)',
  );
  assert.equal(usageWaitStatus(NOW + 5_000, NOW), 'waiting for usage limit reset at 10:40:05 UTC (in 5s)');
});

test('Codex: usage_limit_reached in the error text, structured or escaped inside a string, or only its words', () => {
  const body = JSON.stringify({
    error: {
      type: 'usage_limit_reached',
      message: 'The usage limit has been reached',
      resets_at: 1_780_000_000,
      resets_in_seconds: 4_000,
    },
  });
  assert.deepEqual(usageLimitOf(body), [
    { type: 'usage_limit', resetsAtSec: 1_780_000_000, resetsInSec: 4_000, message: 'Codex usage limit reached' },
  ]);
  assert.deepEqual(
    usageLimitOf(JSON.stringify({ wrapped: body })).map((e) => e.type === 'usage_limit' && e.resetsAtSec),
    [1_780_000_000],
  );
  assert.deepEqual(
    usageLimitOf('The usage limit has been reached, try again later').map(
      (e) => e.type === 'usage_limit' && e.resetsAtSec,
    ),
    [null],
  );
  assert.deepEqual(usageLimitOf('Reconnecting... 1/3 (stream disconnected before completion)'), []);
});

test('Claude: rate_limit_event rejected (or denied) is a usage limit; allowed and allowed_warning are not', () => {
  const line = (status: string) =>
    JSON.stringify({
      type: 'rate_limit_event',
      rate_limit_info: { status, resetsAt: 1_778_565_600, rateLimitType: 'five_hour' },
    });
  for (const status of ['rejected', 'denied']) {
    assert.deepEqual(createClaudeAdapter().parseLine(line(status)), {
      recognized: true,
      events: [
        {
          type: 'usage_limit',
          resetsAtSec: 1_778_565_600,
          resetsInSec: null,
          message: 'Claude five_hour limit reached',
        },
      ],
    });
  }
  for (const status of ['allowed', 'allowed_warning'])
    assert.deepEqual(createClaudeAdapter().parseLine(line(status)), { recognized: true, events: [] });
});
