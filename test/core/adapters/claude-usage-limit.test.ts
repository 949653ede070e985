import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claudeLimitOfText } from '../../../lib/core/adapters/claude-usage-limit.ts';
import { createClaudeAdapter } from '../../../lib/core/adapters/claude.ts';
import { nextClockTime } from '../../../lib/core/detect/reset-clock.ts';
import { usageResetAt } from '../../../lib/core/detect/usage-limit.ts';
import { claudeLines } from '../../../lib/demo/fake-agent-lines.ts';

/** USAGE_LIMIT from Claude's words alone: the text parser, the wall-clock reset, and the adapter. */

test('the limit text: 12- and 24-hour resets, a zone or none, the old epoch form; anything else is no limit or no reset', () => {
  const table: Array<[string, { clock?: object; atSec?: number } | null]> = [
    [
      "You've hit your limit · resets 2pm (Europe/Berlin)",
      { clock: { hour: 14, minute: 0, timeZone: 'Europe/Berlin' } },
    ],
    [
      'You’ve hit your limit · resets 2:30 PM (America/New_York)',
      { clock: { hour: 14, minute: 30, timeZone: 'America/New_York' } },
    ],
    ["You've hit your limit · resets 12am (Asia/Kolkata)", { clock: { hour: 0, minute: 0, timeZone: 'Asia/Kolkata' } }],
    ["You've hit your limit · resets 12pm (UTC)", { clock: { hour: 12, minute: 0, timeZone: 'UTC' } }],
    ["You've hit your usage limit · resets 14:00", { clock: { hour: 14, minute: 0, timeZone: null } }],
    ["You've reached your five-hour limit · resets at 9:05am", { clock: { hour: 9, minute: 5, timeZone: null } }],
    ['Claude AI usage limit reached|1749924000', { atSec: 1749924000 }],
    ["You've hit your limit", {}],
    ["You've hit your limit · resets 13pm (Europe/Berlin)", {}],
    ["You've hit your limit · resets soon", {}],
    ["I think you've hit your limit of patience with this test; resets 2pm", null],
    ['The rate limit of the API was hit in the test; resets 2pm', null],
    [`You've hit your limit · resets 2pm ${'and more words '.repeat(30)}`, null],
  ];
  for (const [text, expected] of table) {
    const said = claudeLimitOfText(text);
    const event = said?.type === 'usage_limit' ? said : null;
    if (expected === null) {
      assert.equal(event, null, text);
      continue;
    }
    assert.ok(event, text);
    assert.deepEqual(event.resetsAtClock, expected.clock, text);
    assert.equal(event.resetsAtSec, expected.atSec ?? null, text);
    assert.equal(event.resetsInSec, null);
  }
});

const at = (y: number, mo: number, d: number, h: number, mi = 0, s = 0) => Date.UTC(y, mo - 1, d, h, mi, s);

test("the reset instant: the end of the next such wall-clock minute in the zone; a minute already over is tomorrow's", () => {
  const summer = at(2026, 6, 15, 10); // Berlin 12:00 CEST, New York 06:00 EDT, Kolkata 15:30 IST
  const table: Array<[string, number, string | null, number, number | null]> = [
    ['2pm Berlin in summer (UTC+2)', summer, 'Europe/Berlin', 14, at(2026, 6, 15, 12)],
    ['2pm Berlin in winter (UTC+1)', at(2026, 1, 15, 10), 'Europe/Berlin', 14, at(2026, 1, 15, 13)],
    ['11am Berlin, past: tomorrow', summer, 'Europe/Berlin', 11, at(2026, 6, 16, 9)],
    ['midnight New York: tomorrow', summer, 'America/New_York', 0, at(2026, 6, 16, 4)],
    ['noon Kolkata (UTC+5:30), past: tomorrow', summer, 'Asia/Kolkata', 12, at(2026, 6, 16, 6, 30)],
    ['14:00 UTC', summer, 'UTC', 14, at(2026, 6, 15, 14)],
    ['9am Berlin across the spring DST change', at(2026, 3, 28, 23), 'Europe/Berlin', 9, at(2026, 3, 29, 7)],
    ['an unknown zone: no reset', summer, 'Mars/Olympus_Mons', 14, null],
  ];
  for (const [why, now, timeZone, hour, expected] of table)
    assert.equal(nextClockTime({ hour, minute: 0, timeZone }, now), expected === null ? null : expected + 60_000, why);
  assert.equal(
    nextClockTime({ hour: 15, minute: 30, timeZone: 'Asia/Kolkata' }, summer + 20_000),
    summer + 60_000,
    'the current minute ends in 40 s, not tomorrow',
  );
  assert.equal(nextClockTime({ hour: 25, minute: 0, timeZone: 'UTC' }, summer), null);
  const host = Intl.DateTimeFormat().resolvedOptions().timeZone;
  assert.equal(
    nextClockTime({ hour: 14, minute: 0, timeZone: null }, summer),
    nextClockTime({ hour: 14, minute: 0, timeZone: host }, summer),
    "no zone: the host's",
  );
});

test('the reset is resolved against when the line was said, from the injected clocks', () => {
  const said = at(2026, 6, 15, 10);
  const seen = {
    resetsAtSec: null,
    resetsInSec: null,
    resetsAtClock: { hour: 14, minute: 0, timeZone: 'Europe/Berlin' },
    message: '',
    at: 5_000,
  };
  // Read an hour later (monotonic 5 s → 3 605 s): still that day's 2pm, not the next.
  assert.equal(usageResetAt(seen, 3_605_000, said + 3_600_000), at(2026, 6, 15, 12, 1));
  assert.equal(
    usageResetAt({ ...seen, resetsAtClock: undefined }, 5_000, said),
    null,
    'no reset given: none (the run backs off, usage-limit.ts)',
  );
});

test('the adapter: a limit said only in words is a usage_limit once per turn; a rate_limit_event said first wins', () => {
  const id = 'c0ffee00-0000-4000-8000-000000000002';
  const text = "You've hit your limit · resets 2pm (Europe/Berlin)";
  const limits = (adapter: ReturnType<typeof createClaudeAdapter>, lines: object[]) =>
    lines.flatMap((line) => adapter.parseLine(JSON.stringify(line)).events).filter((e) => e.type === 'usage_limit');
  const words = [
    claudeLines.init(id, '/'),
    claudeLines.text(id, text),
    { ...claudeLines.result(id, true, text), is_error: true },
  ];
  assert.deepEqual(limits(createClaudeAdapter(), words), [
    {
      type: 'usage_limit',
      resetsAtSec: null,
      resetsInSec: null,
      message: 'Claude usage limit reached',
      resetsAtClock: { hour: 14, minute: 0, timeZone: 'Europe/Berlin' },
    },
  ]);
  const onlyResult = [claudeLines.init(id, '/'), { ...claudeLines.result(id, true, text), is_error: true }];
  assert.equal(limits(createClaudeAdapter(), onlyResult).length, 1, 'the result alone is enough');
  assert.equal(
    limits(createClaudeAdapter(), words.slice(0, 2)).length,
    1,
    'the assistant text alone is enough (not skipped as an eventless message)',
  );
  assert.equal(
    limits(createClaudeAdapter(), [claudeLines.init(id, '/'), claudeLines.result(id, true, text)]).length,
    0,
    'a successful result quoting the text is no limit',
  );
  const both = [claudeLines.init(id, '/'), claudeLines.rateLimitRejected(id, 1_781_000_000), ...words.slice(1)];
  assert.deepEqual(
    limits(createClaudeAdapter(), both).map((e) => e.resetsAtSec),
    [1_781_000_000],
  );
  const adapter = createClaudeAdapter();
  limits(adapter, words);
  assert.equal(limits(adapter, words).length, 1, 'a new turn (system/init) can hit the limit again');
});
