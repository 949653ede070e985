import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCodexAdapter } from '../../../lib/core/adapters/codex.ts';
import { createClaudeAdapter } from '../../../lib/core/adapters/claude.ts';
import { usageLimitOf } from '../../../lib/core/adapters/codex-usage-limit.ts';
import { nextClockTime } from '../../../lib/core/detect/reset-clock.ts';
import { usageResetAt } from '../../../lib/core/detect/usage-limit.ts';
import type { AgentEvent } from '../../../lib/core/adapters/agent-events.ts';
import { eventsOf, fixtureLines } from '../../helpers/fixtures.ts';

/**
 * Usage limits and throttles exactly as the real CLIs print them (agent-formats.md §F; the
 * fixtures copy the recorded lines): Codex 0.169's words with U+2019 and a minute-cut local
 * time, its "try again later" and dated forms, its 429 after retries; Claude 2.1.197's
 * rate_limit_event with and without resetsAt, "resets 3:58pm (UTC)", "not your usage limit",
 * and api_retry lines.
 */

const limits = (events: readonly AgentEvent[]) =>
  events.filter((e): e is Extract<AgentEvent, { type: 'usage_limit' }> => e.type === 'usage_limit');

test('Codex 0.169: "You’ve hit your usage limit … try again at 3:54 PM." (U+2019) is a usage limit, the reset a host-zone clock time', () => {
  const lines = fixtureLines('agents', 'codex-usage-limit.jsonl');
  assert.ok(lines[2]!.includes('You\u2019ve'), 'the fixture keeps the recorded U+2019');
  const found = limits(eventsOf(createCodexAdapter(), lines));
  assert.equal(found.length, 2, 'the error line and the turn.failed after it');
  for (const limit of found) {
    assert.deepEqual(limit, {
      type: 'usage_limit',
      resetsAtSec: null,
      resetsInSec: null,
      message: 'Codex usage limit reached',
      resetsAtClock: { hour: 15, minute: 54, timeZone: null },
    });
  }
});

test('Codex: any apostrophe, the dated form, "try again later", and a 429 whose retries ran out', () => {
  const text = (apostrophe: string, end: string) =>
    `You${apostrophe}ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/usage to purchase more credits or ${end}`;
  for (const apostrophe of ["'", '\u2019', '\u2018', '\u02BC']) {
    assert.deepEqual(
      limits(usageLimitOf(text(apostrophe, 'try again at 3:54 PM.')))[0]?.resetsAtClock,
      { hour: 15, minute: 54, timeZone: null },
      JSON.stringify(apostrophe),
    );
  }
  assert.deepEqual(limits(usageLimitOf(text('\u2019', 'try again at 12:05 AM.')))[0]?.resetsAtClock, {
    hour: 0,
    minute: 5,
    timeZone: null,
  });
  assert.deepEqual(limits(usageLimitOf(text('\u2019', 'try again at Dec 4th, 2026 3:54 PM.')))[0]?.resetsAtClock, {
    hour: 15,
    minute: 54,
    timeZone: null,
    date: { year: 2026, month: 12, day: 4 },
  });
  assert.deepEqual(limits(usageLimitOf(text('\u2019', 'try again at Jan 1st, 2027 9:07 AM.')))[0]?.resetsAtClock, {
    hour: 9,
    minute: 7,
    timeZone: null,
    date: { year: 2027, month: 1, day: 1 },
  });
  const later = limits(usageLimitOf(text('\u2019', 'try again later.')));
  assert.deepEqual(
    later,
    [{ type: 'usage_limit', resetsAtSec: null, resetsInSec: null, message: 'Codex usage limit reached' }],
    'a limit with no known reset',
  );
  assert.equal(later[0]!.throttle, undefined, 'a plan limit, not a throttle');

  const throttled = limits(eventsOf(createCodexAdapter(), fixtureLines('agents', 'codex-429-retries.jsonl')));
  assert.equal(
    throttled.length,
    1,
    'the "Reconnecting… 1/4 (… 429 …)" retry is no limit; only the turn.failed after the retries is',
  );
  assert.equal(throttled[0]!.throttle, true);
  assert.equal(throttled[0]!.resetsAtClock, undefined);
});

const at = (y: number, mo: number, d: number, h: number, mi = 0, s = 0) => Date.UTC(y, mo - 1, d, h, mi, s);

test('a minute-precision reset is the END of the stated minute, in the host zone or the named one; a dated one on its day', () => {
  // Codex said "3:54 PM" for a reset at 15:54:19: resuming at 15:54:00 would be 19 s early.
  assert.equal(
    nextClockTime({ hour: 15, minute: 54, timeZone: 'UTC' }, at(2026, 12, 1, 15, 53, 20)),
    at(2026, 12, 1, 15, 55),
  );
  assert.equal(
    nextClockTime({ hour: 15, minute: 54, timeZone: 'UTC' }, at(2026, 12, 1, 15, 54, 30)),
    at(2026, 12, 1, 15, 55),
    'said within the minute: still today',
  );
  assert.equal(
    nextClockTime({ hour: 15, minute: 54, timeZone: 'UTC' }, at(2026, 12, 1, 15, 55, 0)),
    at(2026, 12, 2, 15, 55),
    "a minute already over: tomorrow's",
  );
  // Claude's "resets 4pm (UTC)" for 16:00:52.
  assert.equal(nextClockTime({ hour: 16, minute: 0, timeZone: 'UTC' }, at(2026, 12, 1, 15, 0)), at(2026, 12, 1, 16, 1));
  const dated = { hour: 15, minute: 54, timeZone: 'UTC', date: { year: 2026, month: 12, day: 4 } };
  assert.equal(nextClockTime(dated, at(2026, 12, 1, 10)), at(2026, 12, 4, 15, 55));
  assert.equal(
    nextClockTime({ ...dated, timeZone: 'America/New_York' }, at(2026, 12, 1, 10)),
    at(2026, 12, 4, 20, 55),
    'EST is UTC-5 in December',
  );
  const host = Intl.DateTimeFormat().resolvedOptions().timeZone;
  assert.equal(
    nextClockTime({ hour: 15, minute: 54, timeZone: null }, at(2026, 12, 1, 10)),
    nextClockTime({ hour: 15, minute: 54, timeZone: host }, at(2026, 12, 1, 10)),
    "no zone: the host's",
  );
});

test('Claude 2.1.197 session limit: rate_limit_event rejected with resetsAt, then "resets 3:58pm (UTC)": one plan limit, the epoch reset', () => {
  const found = limits(eventsOf(createClaudeAdapter(), fixtureLines('agents', 'claude-session-limit.jsonl')));
  assert.deepEqual(found, [
    {
      type: 'usage_limit',
      resetsAtSec: 1796313486,
      resetsInSec: null,
      message: 'Claude five_hour limit reached (no overage: org_level_disabled)',
    },
  ]);
  // The words alone (no rate_limit_event): the end of 15:58 UTC.
  const words = fixtureLines('agents', 'claude-session-limit.jsonl').filter(
    (line) => !line.includes('rate_limit_event'),
  );
  const [limit] = limits(eventsOf(createClaudeAdapter(), words));
  assert.deepEqual(limit?.resetsAtClock, { hour: 15, minute: 58, timeZone: 'UTC' });
  const said = at(2026, 12, 1, 15, 10);
  assert.equal(usageResetAt({ ...limit!, at: 0 }, 0, said), at(2026, 12, 1, 15, 59));
});

test('Claude throttles are not plan limits: rejected with no resetsAt, "not your usage limit", a 429 after its own retries', () => {
  const throttled = limits(eventsOf(createClaudeAdapter(), fixtureLines('agents', 'claude-throttled.jsonl')));
  assert.deepEqual(throttled, [
    {
      type: 'usage_limit',
      resetsAtSec: null,
      resetsInSec: null,
      throttle: true,
      message: 'Claude API throttled (not a usage limit)',
    },
  ]);
  const textOnly = fixtureLines('agents', 'claude-throttled.jsonl').filter(
    (line) => !line.includes('rate_limit_event'),
  );
  assert.equal(limits(eventsOf(createClaudeAdapter(), textOnly))[0]?.throttle, true, 'the result text alone says it');
  const spent = limits(eventsOf(createClaudeAdapter(), fixtureLines('agents', 'claude-429-retries-spent.jsonl')));
  assert.equal(spent.length, 1);
  assert.equal(spent[0]!.throttle, true);
});

test('Claude system/api_retry lines are the agent speaking: recognized (activity), an error event, never a limit', () => {
  const adapter = createClaudeAdapter();
  const [init, retry] = fixtureLines('agents', 'claude-429-retries-spent.jsonl');
  adapter.parseLine(init!);
  const parsed = adapter.parseLine(retry!);
  assert.deepEqual(parsed, {
    recognized: true,
    events: [{ type: 'error', message: 'API retry 1/10 (429): rate_limit' }],
  });
});
