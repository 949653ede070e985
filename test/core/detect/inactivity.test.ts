import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectInactivity } from '../../../lib/core/detect/inactivity.ts';

test('fires after the limit with no output and no tree activity, with the documented message', () => {
  const limitMs = 30 * 60_000;
  assert.equal(detectInactivity({ now: limitMs - 1, limitMs, lastOutputAt: 0, lastTreeActivityAt: 0 }), null);
  assert.deepEqual(detectInactivity({ now: limitMs, limitMs, lastOutputAt: 0, lastTreeActivityAt: 0 }), {
    message: 'no output for 30min',
    silentForMs: limitMs,
  });
});

test('tree activity postpones it; the message still counts from the last output', () => {
  const limitMs = 10_000;
  assert.equal(detectInactivity({ now: 15_000, limitMs, lastOutputAt: 0, lastTreeActivityAt: 6_000 }), null);
  assert.equal(
    detectInactivity({ now: 16_000, limitMs, lastOutputAt: 0, lastTreeActivityAt: 6_000 })?.message,
    'no output for 16s',
  );
});

test('a limit of 0 (off) never fires', () => {
  assert.equal(detectInactivity({ now: 1e12, limitMs: 0, lastOutputAt: 0, lastTreeActivityAt: 0 }), null);
});

test('an agent whose last word was a compaction: the message says it was compacting its context', () => {
  const limitMs = 10_000;
  assert.equal(
    detectInactivity({
      now: 12_000,
      limitMs,
      lastOutputAt: 1_000,
      lastTreeActivityAt: 0,
      agent: 'claude',
      compactingAt: 1_000,
    })?.message,
    'no claude output for 11s: the agent was compacting its context (its last event, 11s ago, was a compaction)',
  );
  assert.equal(
    detectInactivity({
      now: 12_000,
      limitMs,
      lastOutputAt: 1_000,
      lastTreeActivityAt: 0,
      agent: 'claude',
      compactingAt: null,
    })?.message,
    'no claude output for 11s',
  );
});
