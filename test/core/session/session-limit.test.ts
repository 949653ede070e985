import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lastUsageLimit } from '../../../lib/core/session/session-limit.ts';

const at = (s: number) => new Date(Date.UTC(2026, 11, 6, 20, 0, s)).toISOString();
const ms = (s: number) => Date.UTC(2026, 11, 6, 20, 0, s);
const line = (value: object) => JSON.stringify(value);

test('Claude transcript: the last API-error limit entry, its reset, and the turns written after it', () => {
  const limit = (s: number, text: string) =>
    line({
      timestamp: at(s),
      type: 'assistant',
      isApiErrorMessage: true,
      error: 'rate_limit',
      message: { content: [{ type: 'text', text }] },
    });
  const lines = [
    line({ timestamp: at(0), type: 'user', message: { role: 'user', content: 'fix the tests' } }),
    limit(1, `Claude AI usage limit reached|${ms(30) / 1000}`),
    line({ timestamp: at(2), type: 'attachment' }),
    'not json',
  ];
  assert.deepEqual(
    lastUsageLimit('claude', lines),
    { saidAt: ms(1), resetAt: ms(30), lastEntryAt: null },
    'an attachment is no turn',
  );
  const continued = [
    ...lines,
    line({ timestamp: at(31), type: 'user', message: { content: 'continue' } }),
    line({ timestamp: at(33), type: 'assistant', message: { content: [{ type: 'text', text: 'ok' }] } }),
  ];
  assert.equal(lastUsageLimit('claude', continued)!.lastEntryAt, ms(33));
  // The same limit said again later is a new case, with nothing after it yet.
  assert.deepEqual(
    lastUsageLimit('claude', [...continued, limit(40, `Claude AI usage limit reached|${ms(90) / 1000}`)]),
    { saidAt: ms(40), resetAt: ms(90), lastEntryAt: null },
  );
  // A 2.1.332 clock-time reset: the end of that minute, after the entry's own time.
  assert.equal(
    lastUsageLimit('claude', [limit(1, "You've hit your 5-hour limit · resets 8:55pm (UTC)")])!.resetAt,
    Date.UTC(2026, 11, 6, 20, 56),
  );
  assert.equal(
    lastUsageLimit('claude', [
      line({
        timestamp: at(1),
        type: 'assistant',
        message: { content: [{ type: 'text', text: "You've hit your limit · resets 2pm" }] },
      }),
    ]),
    null,
    'the agent quoting the words is no limit',
  );
  assert.equal(
    lastUsageLimit('claude', [
      limit(1, 'API Error: Server is temporarily limiting requests (not your usage limit) · Rate limited'),
    ]),
    null,
    'a throttle is not waited for here',
  );
});

test('Codex rollout: the error event of a usage limit, and the turn started after it', () => {
  const lines = [
    line({ timestamp: at(0), type: 'event_msg', payload: { type: 'task_started' } }),
    line({
      timestamp: at(1),
      type: 'event_msg',
      payload: {
        type: 'error',
        message: `You’ve hit your usage limit. Try again in a bit. ${'"resets_at":'}${ms(60) / 1000}`,
      },
    }),
    line({ timestamp: at(2), type: 'event_msg', payload: { type: 'token_count' } }),
  ];
  assert.deepEqual(lastUsageLimit('codex', lines), { saidAt: ms(1), resetAt: ms(60), lastEntryAt: null });
  assert.equal(
    lastUsageLimit('codex', [
      ...lines,
      line({ timestamp: at(61), type: 'event_msg', payload: { type: 'task_started' } }),
    ])!.lastEntryAt,
    ms(61),
  );
});
