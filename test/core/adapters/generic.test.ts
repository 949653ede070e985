import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createGenericAdapter } from '../../../lib/core/adapters/generic.ts';
import { eventsOf } from '../../helpers/fixtures.ts';

test('every line is activity; without patterns there are no events', () => {
  const adapter = createGenericAdapter();
  for (const line of ['', 'compiling…', '{"type":"thread.started","thread_id":"x"}', '\u0000\uFFFD']) {
    assert.deepEqual(adapter.parseLine(line), { recognized: true, events: [] });
  }
});

test('session and turn-end patterns: first capture group, reported once per new id', () => {
  const adapter = createGenericAdapter({ sessionPattern: 'session=([a-z0-9-]+)', turnEndPattern: '^DONE\\b' });
  assert.deepEqual(
    eventsOf(adapter, [
      'start session=abc-1',
      'work',
      'again session=abc-1',
      'DONE step 1',
      'session=def-2',
      'not DONE',
    ]),
    [{ type: 'session', sessionId: 'abc-1' }, { type: 'turn_completed' }, { type: 'session', sessionId: 'def-2' }],
  );
});

test('a session pattern without a group uses the whole match', () => {
  assert.deepEqual(
    eventsOf(createGenericAdapter({ sessionPattern: '[0-9a-f]{8}-[0-9a-f-]{27}' }), [
      'id 01a23013-27f3-73e2-b3cb-86b68ffb84d0 ok',
    ]),
    [{ type: 'session', sessionId: '01a23013-27f3-73e2-b3cb-86b68ffb84d0' }],
  );
});
