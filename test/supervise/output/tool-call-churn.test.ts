import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Session } from 'node:inspector/promises';
import { createClaudeAdapter } from '../../../lib/core/adapters/claude.ts';
import { OutputTracker } from '../../../lib/supervise/output/output.ts';
import { keepYoungGenerationSmall } from '../../../lib/io/heap/young-generation.ts';

/**
 * A flood of tool calls must not push the tool maps' hash tables into V8's old generation: an
 * emptied Map's dead table held the next one alive (lib/core/adapters/without-key.ts), and the
 * 100 MB Claude flood promoted 15 MB of them. V8's sampling heap profiler keeps each sampled
 * allocation that outlives a young-generation collection: those made by Map operations must be
 * (nearly) none. Before the fix, 5,000 calls left ~2 MB of them.
 */
test('a flood of tool calls leaves no Map hash tables for the old generation', async () => {
  keepYoungGenerationSmall(); // as deadman runs: a young generation that stays small promotes sooner
  const adapter = createClaudeAdapter();
  const output = new OutputTracker(0, () => adapter, { event: () => {} }, { onSession: () => {} });
  const lines = (n: number) => [
    JSON.stringify({
      type: 'assistant',
      message: {
        content: [{ type: 'tool_use', id: `toolu_${n}`, name: 'Bash', input: { command: `make test-${n}` } }],
      },
    }),
    JSON.stringify({
      type: 'user',
      message: { content: [{ tool_use_id: `toolu_${n}`, type: 'tool_result', content: 'ok', is_error: false }] },
    }),
  ];
  // The tracker and the adapter's maps live for the whole run: old, as they are in a flood.
  let garbage: object = {};
  for (let i = 0; i < 3_000_000; i++) garbage = { i };
  assert.ok(garbage);
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', { samplingInterval: 512, includeObjectsCollectedByMajorGC: true });
  for (let n = 0; n < 5_000; n++) for (const text of lines(n)) output.line('stdout', { text, truncated: false }, n);
  const { profile } = await session.post('HeapProfiler.stopSampling');
  session.disconnect();
  let promotedByMaps = 0;
  const walk = (node: typeof profile.head): void => {
    if (['set', 'delete', 'clear'].includes(node.callFrame.functionName)) promotedByMaps += node.selfSize;
    node.children.forEach(walk);
  };
  walk(profile.head);
  assert.equal(output.state.openTools.size, 0);
  assert.ok(promotedByMaps < 100_000, `${promotedByMaps} bytes of Map tables outlived a young-generation collection`);
});
