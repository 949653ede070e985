import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAdapter } from '../../../lib/core/adapters/index.ts';
import type { AdapterName } from '../../../lib/core/adapters/agent-events.ts';
import { fixtureLines } from '../../helpers/fixtures.ts';

const real = [
  ...fixtureLines('agents', 'codex-failing-command.jsonl'),
  ...fixtureLines('agents', 'claude-bash-success.jsonl'),
];
const tenMegabytes = 10 * 1024 * 1024;

const garbage: Array<[string, string]> = [
  ['empty', ''],
  ['plain text', 'Reading additional input from stdin...'],
  ['JSON scalar', '42'],
  ['JSON null', 'null'],
  ['JSON array', '[{"type":"turn.started"}]'],
  ['object without type', '{"thread_id":"x"}'],
  ['type not a string', '{"type":7}'],
  ['unknown type', '{"type":"from.the.future","x":1}'],
  ['binary', '\u0000\u0001\u00ff{"type"'],
  ['carriage return', '{"type":"turn.started"}\r'],
  ['duplicate keys', '{"type":"thread.started","thread_id":"a","thread_id":"b"}'],
  ['deep nesting', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
  ['10 MB garbage', 'x'.repeat(tenMegabytes)],
  [
    '10 MB open object',
    `{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"${'y'.repeat(tenMegabytes)}`,
  ],
  ['10 MB of braces', '{'.repeat(tenMegabytes)],
  ...real.map((line, i): [string, string] => [
    `real line ${i} cut in half`,
    line.slice(0, Math.floor(line.length / 2)),
  ]),
];

for (const name of ['codex', 'claude', 'generic'] as AdapterName[]) {
  test(`${name}: garbage, partial, duplicate-key, unknown and 10 MB lines never throw`, async () => {
    const adapter = await createAdapter(name);
    for (const [what, line] of garbage) {
      const parsed = adapter.parseLine(line);
      assert.equal(typeof parsed.recognized, 'boolean', what);
      assert.ok(Array.isArray(parsed.events), what);
      for (const event of parsed.events)
        assert.notEqual(event.type, 'turn_completed', `${what} must not complete a turn`);
    }
  });
}

test('agent adapters do not count plain text as activity, the generic one does', async () => {
  for (const name of ['codex', 'claude'] as const) {
    const adapter = await createAdapter(name);
    assert.equal(adapter.parseLine('panic: something').recognized, false, name);
    assert.equal(adapter.parseLine('x'.repeat(tenMegabytes)).recognized, false, name);
  }
  assert.equal((await createAdapter('generic')).parseLine('panic: something').recognized, true);
});

test('the duplicate "id" of a web_search item does not confuse the parser', async () => {
  const adapter = await createAdapter('codex');
  assert.deepEqual(adapter.parseLine('{"type":"thread.started","thread_id":"a","thread_id":"b"}').events, [
    { type: 'session', sessionId: 'b' },
  ]);
});
