import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { claudeLineSchema } from '../../../lib/core/adapters/claude-schema.ts';
import { codexEventSchema } from '../../../lib/core/adapters/codex-schema.ts';
import { agentLineCorpus, jsonOrNull } from '../../helpers/agent-line-corpus.ts';

/**
 * The adapters validate each line with the function zod generates from their schema
 * (z.compile), which must answer as the schema itself does: the same success and the same value,
 * defaults and caught fields included. Every object of the corpus is checked, and each of it with
 * one field at a time given a value of another kind (what `.catch`, `.nullish` and the fallback
 * to zod's own parser are for).
 */

const objects = [...new Set(agentLineCorpus().flatMap((file) => file.lines))]
  .map(jsonOrNull)
  .filter((value): value is Record<string, unknown> => isObject(value) && typeof value.type === 'string');

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const OTHER_KINDS: unknown[] = [null, 7, -1, 'text', true, [], {}, [{ path: 3 }]];

/** `value` with the value at each path, in turn, replaced by each other kind of value. */
function* variants(value: unknown, depth = 0): Generator<unknown> {
  if (depth > 3) return;
  if (Array.isArray(value)) {
    for (const [i, item] of value.slice(0, 3).entries())
      for (const changed of variants(item, depth + 1)) yield value.map((x, j) => (j === i ? changed : x));
  } else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (key === 'type' && depth === 0) continue;
      for (const other of OTHER_KINDS) yield { ...value, [key]: other };
      for (const changed of variants(item, depth + 1)) yield { ...value, [key]: changed };
    }
  }
}

for (const [name, schema] of [
  ['codex', codexEventSchema],
  ['claude', claudeLineSchema],
] as const) {
  test(`${name}: the compiled schema answers every corpus line, and every field of another kind, as the schema does`, () => {
    const compiled = z.compile(schema as z.ZodType);
    let checked = 0;
    let accepted = 0;
    for (const object of objects) {
      for (const input of [object, ...variants(object)]) {
        const [fast, slow] = [compiled.safeParse(input), schema.safeParse(input)];
        assert.equal(fast.success, slow.success, JSON.stringify(input));
        assert.deepEqual(fast.data, slow.data, JSON.stringify(input));
        checked++;
        if (slow.success) accepted++;
      }
    }
    // Not vacuous: many of the agent's own lines, and many changed ones, on both sides of the schema.
    assert.ok(accepted > 100 && checked - accepted > 100, `${accepted} accepted of ${checked}`);
  });
}
