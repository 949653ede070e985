import { test } from 'node:test';
import assert from 'node:assert/strict';
import { afterUsageLimit } from '../../../lib/core/detect/auto-continue.ts';

const RESET = Date.UTC(2026, 11, 6, 20, 56);
const GRACE = 120_000;

test('after a usage limit: resumed once a turn follows it (whatever its stamp), else waiting until the reset plus the grace, then continue', () => {
  const limit = { saidAt: RESET - 3_600_000, resetAt: RESET, lastEntryAt: null };
  assert.equal(afterUsageLimit(null, RESET, GRACE), 'none');
  assert.equal(afterUsageLimit(limit, RESET - 1, GRACE), 'waiting');
  assert.equal(afterUsageLimit(limit, RESET + GRACE - 1, GRACE), 'waiting');
  assert.equal(afterUsageLimit(limit, RESET + GRACE, GRACE), 'continue');
  // Continued at 20:55:19 for "resets 8:55pm" (the end of that minute, 20:56): resumed, never prompted.
  assert.equal(afterUsageLimit({ ...limit, lastEntryAt: RESET - 41_000 }, RESET + GRACE, GRACE), 'resumed');
  assert.equal(
    afterUsageLimit({ ...limit, resetAt: null }, RESET + 10 * GRACE, GRACE),
    'waiting',
    'no readable reset: left to the person',
  );
});
