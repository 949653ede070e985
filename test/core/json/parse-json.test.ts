import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseJsonOrUndefined } from '../../../lib/core/json/parse-json.ts';

test('text that is JSON parses, null included; anything else is undefined, never a throw', () => {
  assert.deepEqual(parseJsonOrUndefined('{"a":[1,2]}'), { a: [1, 2] });
  assert.equal(parseJsonOrUndefined('null'), null);
  assert.equal(parseJsonOrUndefined('5'), 5);
  for (const text of ['', '{"cut": "sho', 'plain text', '{a:1}'])
    assert.equal(parseJsonOrUndefined(text), undefined, text);
});
