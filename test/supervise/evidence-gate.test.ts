import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Claim } from '../../lib/core/config/config.ts';
import { configSchema } from '../../lib/core/config/config.ts';
import { createEvidenceGate } from '../../lib/supervise/evidence-gate.ts';
import type { RunRecords } from '../../lib/supervise/records.ts';
import { waitFor } from '../helpers/cli.ts';

/** The evidence gate follows its claims getter: claims a SIGHUP brings are watched from the next tick, ones it drops no longer. */

const claimsOf = (evidence: unknown[]) => configSchema.parse({ evidence }).evidence;

test('claims brought by a reload are watched, and claims it drops are forgotten', async () => {
  let claims: readonly Claim[] = [];
  const evaluated: string[] = [];
  const records = { evidence: () => {} } as unknown as RunRecords;
  const gate = createEvidenceGate(() => claims, {
    evaluate: async (claim, index) => {
      evaluated.push(claim.name ?? String(index));
      return { claim: claim.name ?? 'x', kind: claim.kind, verdict: 'dead', reason: 'gone' };
    },
    monotonic: () => performance.now(),
    records,
    tickMs: 20,
  });
  const dead: string[] = [];
  gate.start((message) => dead.push(message));
  try {
    assert.deepEqual(gate.summary(), { alive: 0, total: 0, failing: null });
    claims = claimsOf([{ name: 'report', kind: 'command', command: ['true'], when: 'always' }]);
    await waitFor(() => dead.length > 0, 2_000, 'the new claim judged');
    assert.deepEqual(dead, ['evidence report dead: gone']);
    assert.equal(gate.summary().total, 1);
    claims = claimsOf([{ name: 'other', kind: 'command', command: ['true'] }]);
    assert.equal(gate.summary().total, 0, 'an on_exit claim is not watched');
    assert.equal(await gate.checkOnExit(), 'other dead: gone', 'on exit, the claims of now');
  } finally {
    gate.stop();
  }
});
