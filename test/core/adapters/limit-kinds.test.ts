import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claudeLimitOfText } from '../../../lib/core/adapters/claude-usage-limit.ts';
import { usageLimitOf } from '../../../lib/core/adapters/codex-usage-limit.ts';
import { createClaudeAdapter } from '../../../lib/core/adapters/claude.ts';
import { createCodexAdapter } from '../../../lib/core/adapters/codex.ts';
import { headerReset } from '../../../lib/core/adapters/limit-headers.ts';
import type { AgentEvent } from '../../../lib/core/adapters/agent-events.ts';
import { eventsOf, fixtureLines } from '../../helpers/fixtures.ts';

/**
 * The three kinds of limit both CLIs report (agent-formats.md §F, §F.1), one table: spent credit
 * (no reset: `credit`), the plan's window (`window`, its reset from data first — the body's
 * fields, then headers, then the words) and a throttle (`throttle`, with the delay it states).
 * Each row is what one CLI printed (or the backend's body it passed on) and what deadman makes
 * of it; `null`: no limit at all.
 */

type Kind =
  | { kind: 'credit' }
  | { kind: 'window'; atSec?: number; inSec?: number; clock?: object }
  | { kind: 'throttle'; inSec?: number }
  | null;

function kindOf(events: readonly AgentEvent[]): Kind {
  const credit = events.find((e) => e.type === 'credit_exhausted');
  if (credit) return { kind: 'credit' };
  const limit = events.find((e): e is Extract<AgentEvent, { type: 'usage_limit' }> => e.type === 'usage_limit');
  if (!limit) return null;
  if (limit.throttle) return { kind: 'throttle', ...(limit.resetsInSec !== null ? { inSec: limit.resetsInSec } : {}) };
  return {
    kind: 'window',
    ...(limit.resetsAtSec !== null ? { atSec: limit.resetsAtSec } : {}),
    ...(limit.resetsInSec !== null ? { inSec: limit.resetsInSec } : {}),
    ...(limit.resetsAtClock ? { clock: limit.resetsAtClock } : {}),
  };
}

const PRO =
  'Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/usage to purchase more credits or';
const body = (fields: object) => JSON.stringify({ error: fields });

const CODEX: Array<[string, string, boolean, Kind]> = [
  ['0.171 spent credit', 'Quota exceeded. Check your plan and billing details.', true, { kind: 'credit' }],
  [
    'insufficient_quota body',
    body({ type: 'insufficient_quota', code: 'insufficient_quota', message: 'You exceeded your current quota' }),
    false,
    { kind: 'credit' },
  ],
  ['credit_balance_exhausted', body({ type: 'credit_balance_exhausted' }), true, { kind: 'credit' }],
  ['organization spend limit', body({ code: 'organization_spend_limit_exceeded' }), true, { kind: 'credit' }],
  [
    'project spend limit, escaped in a string',
    JSON.stringify(body({ code: 'project_spend_limit_exceeded' })),
    true,
    { kind: 'credit' },
  ],
  [
    'usage_limit_reached with resets_at and resets_in_seconds: resets_at first',
    body({ type: 'usage_limit_reached', resets_at: 1796313486, resets_in_seconds: 600 }),
    true,
    { kind: 'window', atSec: 1796313486, inSec: 600 },
  ],
  [
    'usage_limit_reached with a retry-after header only',
    `${body({ type: 'usage_limit_reached' })} retry-after: 3600`,
    true,
    { kind: 'window', inSec: 3600 },
  ],
  [
    'usage_limit_reached: a header beats the words',
    `${body({ type: 'usage_limit_reached' })} anthropic-ratelimit-unified-reset: 1796313486 try again at 3:54 PM`,
    true,
    { kind: 'window', atSec: 1796313486 },
  ],
  [
    '0.169 words, today',
    `You’ve hit your usage limit. ${PRO} try again at 3:54 PM.`,
    true,
    { kind: 'window', clock: { hour: 15, minute: 54, timeZone: null } },
  ],
  [
    '0.171 words, dated',
    `You’ve hit your usage limit. ${PRO} try again at Sep 18th, 2026 12:04 AM.`,
    true,
    { kind: 'window', clock: { hour: 0, minute: 4, timeZone: null, date: { year: 2026, month: 9, day: 18 } } },
  ],
  ['no reset: try again later', `You've hit your usage limit. ${PRO} try again later.`, true, { kind: 'window' }],
  [
    'rate_limit_exceeded, try again in 28ms',
    'Rate limit reached for gpt-5 in organization org-x on tokens per min (TPM): Limit 30000, Used 30000. Please try again in 28ms. (rate_limit_exceeded)',
    false,
    { kind: 'throttle', inSec: 0.028 },
  ],
  [
    'rate_limit_exceeded, try again in 1.898s',
    body({ type: 'tokens', code: 'rate_limit_exceeded', message: 'Please try again in 1.898s.' }),
    true,
    { kind: 'throttle', inSec: 1.898 },
  ],
  [
    'rate_limit_exceeded, try again in 35 seconds',
    'rate_limit_exceeded: Please try again in 35 seconds.',
    true,
    { kind: 'throttle', inSec: 35 },
  ],
  [
    'a 429 whose retries ran out, no delay',
    'exceeded retry limit, last status: 429 Too Many Requests',
    true,
    { kind: 'throttle' },
  ],
  [
    'a retry still under way',
    'Reconnecting... 1/4 (exceeded retry limit, last status: 429 Too Many Requests)',
    false,
    null,
  ],
  [
    'a retry of a named throttle still under way',
    'Reconnecting... 2/5 (rate_limit_exceeded: try again in 2s)',
    false,
    null,
  ],
  ['anything else', 'stream disconnected before completion', true, null],
];

const CLAUDE_TEXT: Array<[string, string, Kind]> = [
  ['2.1.332 spent credit', 'Credit balance is too low', { kind: 'credit' }],
  [
    'spent credit as an API error',
    'API Error: Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
    { kind: 'credit' },
  ],
  [
    '2.1.332 window, named',
    "You've hit your 5-hour limit · resets 8:55pm (UTC)",
    { kind: 'window', clock: { hour: 20, minute: 55, timeZone: 'UTC' } },
  ],
  [
    '2.1.197 session limit',
    "You've hit your session limit · resets 3:58pm (UTC)",
    { kind: 'window', clock: { hour: 15, minute: 58, timeZone: 'UTC' } },
  ],
  [
    'a weekly limit in a named zone',
    'You’ve hit your weekly limit · resets 2pm (Asia/Shanghai)',
    { kind: 'window', clock: { hour: 14, minute: 0, timeZone: 'Asia/Shanghai' } },
  ],
  ['the old epoch form', 'Claude AI usage limit reached|1749924000', { kind: 'window', atSec: 1749924000 }],
  [
    'not your usage limit',
    'API Error: Server is temporarily limiting requests (not your usage limit) · Rate limited',
    { kind: 'throttle' },
  ],
  [
    'a 429 after its own retries',
    "API Error: Request rejected (429) · This request would exceed your account's rate limit. Please try again later.",
    { kind: 'throttle' },
  ],
  [
    'the agent talking about credit',
    'I checked: the credit balance is too low in the test fixture, so I changed it.',
    null,
  ],
];

test("Codex: every form of the three kinds, from the body's fields, headers and words, as one table", () => {
  for (const [why, message, turnFailed, expected] of CODEX)
    assert.deepEqual(kindOf(usageLimitOf(message, turnFailed)), expected, why);
});

test('Claude: every text form of the three kinds, as one table', () => {
  for (const [why, text, expected] of CLAUDE_TEXT) {
    const event = claudeLimitOfText(text);
    assert.deepEqual(kindOf(event ? [event] : []), expected, why);
  }
});

test('headers: an epoch reset, retry-after in seconds or milliseconds; nothing else', () => {
  assert.deepEqual(headerReset('"anthropic-ratelimit-unified-5h-reset":"1796313486"'), {
    resetsAtSec: 1796313486,
    resetsInSec: null,
  });
  assert.deepEqual(headerReset('Retry-After: 120'), { resetsAtSec: null, resetsInSec: 120 });
  assert.deepEqual(headerReset('retry-after-ms=1500'), { resetsAtSec: null, resetsInSec: 1.5 });
  assert.equal(headerReset('retry-after: Wed, 21 Oct 2026 07:28:00 GMT'), null, 'the HTTP-date form is not read');
  assert.equal(headerReset('no headers here'), null);
});

const SESSION = '5b0c2a61-7f3e-4c1d-9e2a-3f4b5c6d7e8f';

test('Claude 2.1.332 spent credit: the <synthetic> billing_error and the result whose "type" comes last are one credit_exhausted, with and without the pre-check', () => {
  const lines = fixtureLines('agents', 'claude-credit-too-low.jsonl');
  assert.ok(
    lines[2]!.startsWith('{"duration_api_ms":') && lines[2]!.includes('"type":"result"'),
    "the fixture keeps 2.1.332's key order",
  );
  for (const preCheck of [true, false]) {
    const events = eventsOf(createClaudeAdapter(preCheck), lines);
    assert.deepEqual(
      events.filter((e) => e.type === 'credit_exhausted'),
      [{ type: 'credit_exhausted', message: 'Claude: the credit balance is too low (billing_error)' }],
      `preCheck ${preCheck}`,
    );
    assert.deepEqual(
      events.filter((e) => e.type === 'turn_failed').map((e) => e.type),
      ['turn_failed'],
      'the result line (type last) is read',
    );
    assert.equal(
      events.some((e) => e.type === 'usage_limit'),
      false,
    );
  }
  // The result alone, "type" last: its words are enough.
  assert.deepEqual(kindOf(eventsOf(createClaudeAdapter(), [lines[0]!, lines[2]!])), { kind: 'credit' });
});

test('Claude 2.1.332 window: a rate_limit_event (keys in any order) is the window with its resetsAt, the overage reason named', () => {
  const event = {
    rate_limit_info: {
      status: 'rejected',
      resetsAt: 1796313486,
      rateLimitType: 'five_hour',
      overageStatus: 'rejected',
      overageDisabledReason: 'member_zero_credit_limit',
      isUsingOverage: false,
      unifiedWindows: {},
    },
    uuid: 'u',
    session_id: SESSION,
    type: 'rate_limit_event',
  };
  const text = {
    session_id: SESSION,
    parent_tool_use_id: null,
    message: {
      model: '<synthetic>',
      role: 'assistant',
      content: [{ type: 'text', text: "You've hit your 5-hour limit · resets 8:55pm (UTC)" }],
    },
    type: 'assistant',
  };
  const result = {
    duration_api_ms: 0,
    is_error: true,
    api_error_status: 429,
    result: "You've hit your 5-hour limit · resets 8:55pm (UTC)",
    session_id: SESSION,
    type: 'result',
    subtype: 'success',
  };
  const init = { type: 'system', subtype: 'init', session_id: SESSION };
  for (const preCheck of [true, false]) {
    const events = eventsOf(
      createClaudeAdapter(preCheck),
      [init, event, text, result].map((line) => JSON.stringify(line)),
    );
    assert.deepEqual(
      events.filter((e) => e.type === 'usage_limit'),
      [
        {
          type: 'usage_limit',
          resetsAtSec: 1796313486,
          resetsInSec: null,
          message: 'Claude five_hour limit reached (no overage: member_zero_credit_limit)',
        },
      ],
      `preCheck ${preCheck}: the data, said first, wins over the words after it`,
    );
  }
});

test('Codex 0.171 spent credit: the error and the turn.failed after it name it', () => {
  const events = eventsOf(createCodexAdapter(), fixtureLines('agents', 'codex-quota-exceeded.jsonl'));
  assert.equal(events.filter((e) => e.type === 'credit_exhausted').length, 2);
  assert.equal(
    events.some((e) => e.type === 'usage_limit'),
    false,
  );
});

test("compaction: Claude's compacting status and compact_boundary, Codex's compaction item, are a compacting event; the status that ends it is not", () => {
  const claude = [
    { session_id: SESSION, status: 'compacting', uuid: 'a', type: 'system', subtype: 'status' },
    {
      type: 'system',
      subtype: 'compact_boundary',
      session_id: SESSION,
      compact_metadata: { trigger: 'auto', pre_tokens: 170000 },
    },
    { type: 'system', subtype: 'status', status: null, session_id: SESSION },
  ];
  assert.deepEqual(
    claude.map((line) => createClaudeAdapter().parseLine(JSON.stringify(line)).events),
    [[{ type: 'compacting' }], [{ type: 'compacting' }], []],
  );
  const codex = [
    { type: 'item.started', item: { id: 'item_3', type: 'context_compaction' } },
    { type: 'item.completed', item: { id: 'item_3', type: 'context_compaction' } },
  ];
  for (const preCheck of [true, false]) {
    assert.deepEqual(
      codex.map((line) => createCodexAdapter(undefined, preCheck).parseLine(JSON.stringify(line)).events),
      [[{ type: 'compacting' }], [{ type: 'compacting' }]],
    );
  }
});
