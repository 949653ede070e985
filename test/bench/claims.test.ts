import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claimSchema } from '../../lib/core/config/config.ts';
import { claimCorpus } from '../../bench/helpers/claims-corpus.ts';
import { scoreCorpus } from '../../bench/claims.ts';
import { tempDir } from '../helpers/cli.ts';

/** The corpus of bench/claims.ts is what issue 34 item 7 asks for, and deadman judges all of it right. */

test('the corpus: at least 200 cases, every claim with an alive and a dead shape, every plan valid', () => {
  const cases = claimCorpus('/corpus');
  assert.ok(cases.length >= 200, `${cases.length} cases`);
  assert.equal(new Set(cases.map((c) => c.id)).size, cases.length, 'case ids are unique');
  const shapes = new Map<string, Set<string>>();
  for (const item of cases) {
    const claim = item.id.split('/')[0]!;
    shapes.set(claim, (shapes.get(claim) ?? new Set()).add(item.expected));
    assert.ok(item.sentence.length > 0 && !item.sentence.includes('undefined'), item.id);
    for (const raw of item.plan) assert.ok(claimSchema.safeParse(raw).success, `${item.id}: ${JSON.stringify(raw)}`);
  }
  for (const [claim, expected] of shapes) assert.deepEqual([...expected].sort(), ['alive', 'dead'], claim);
});

test("deadman's evaluator scores 100 % on the corpus, with no false alive", async (t) => {
  const score = await scoreCorpus(tempDir(t));
  assert.deepEqual(score.wrong, []);
  assert.equal(score.falseAlive, 0);
  assert.equal(score.correct, score.cases);
});
