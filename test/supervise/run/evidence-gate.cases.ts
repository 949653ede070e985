import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Claim } from '../../../lib/core/config/config.ts';
import { configSchema } from '../../../lib/core/config/config.ts';
import { createEvidenceGate } from '../../../lib/supervise/run/evidence-gate.ts';
import type { RunRecords } from '../../../lib/supervise/records/records.ts';

/** The evidence gate follows its claims getter: claims a SIGHUP brings are watched from the next tick, ones it drops no longer. */

const claimsOf = (evidence: unknown[]) => configSchema.parse({ evidence }).evidence;

test('claims brought by a reload are watched, and claims it drops are forgotten', async () => {
  let claims: readonly Claim[] = [];
  const evaluated: string[] = [];
  const records = { evidence: () => {} } as unknown as RunRecords;
  // The gate's timer on an injected clock: each tick() is one interval of the repeater, no real wait.
  let now = 0;
  const ticks: Array<() => void> = [];
  const gate = createEvidenceGate(() => claims, {
    evaluate: async (claim, index) => {
      evaluated.push(claim.name ?? String(index));
      return { claim: claim.name ?? 'x', kind: claim.kind, verdict: 'dead', reason: 'gone' };
    },
    monotonic: () => now,
    records,
    every: (_ms, run) => {
      ticks.push(run);
      return () => ticks.splice(ticks.indexOf(run), 1);
    },
  });
  const tick = async () => {
    now += 20;
    for (const run of [...ticks]) run();
    for (let i = 0; i < 3; i += 1) await new Promise((resolve) => setImmediate(resolve));
  };
  const dead: string[] = [];
  gate.start((message) => dead.push(message));
  try {
    assert.deepEqual(gate.summary(), { alive: 0, total: 0, failing: null });
    assert.equal(ticks.length, 0, 'no timer while nothing is watched: an idle run wakes once a poll');
    claims = claimsOf([{ name: 'report', kind: 'command', command: ['true'], when: 'always' }]);
    // The pass's status asks for the summary at every poll: that is where the reload is noticed.
    assert.equal(gate.summary().total, 1);
    await tick();
    assert.deepEqual(dead, ['evidence report dead: gone'], 'the new claim judged at the next tick');
    claims = claimsOf([{ name: 'other', kind: 'command', command: ['true'] }]);
    assert.equal(gate.summary().total, 0, 'an on_exit claim is not watched');
    assert.equal(ticks.length, 0, 'nor timed');
    assert.equal(await gate.checkOnExit(), 'other dead: gone', 'on exit, the claims of now');
  } finally {
    gate.stop();
  }
  assert.equal(ticks.length, 0, 'stop cancels the timer');
});

test('under a fake clock: an always claim is checked every interval, and reported dead only once it stayed failing past its grace', async () => {
  let now = 0;
  const ticks: Array<() => void> = [];
  const verdicts: Array<'alive' | 'dead'> = ['alive', 'dead', 'dead', 'dead', 'dead'];
  let checks = 0;
  const claims = claimsOf([
    { name: 'report', kind: 'command', command: ['true'], when: 'always', interval: '10s', grace: '25s' },
  ]);
  const gate = createEvidenceGate(() => claims, {
    evaluate: async (claim) => ({
      claim: claim.name ?? 'x',
      kind: claim.kind,
      verdict: verdicts[Math.min(checks++, verdicts.length - 1)]!,
      reason: 'r',
    }),
    monotonic: () => now,
    records: { evidence: () => {} } as unknown as RunRecords,
    every: (_ms, run) => {
      ticks.push(run);
      return () => ticks.splice(ticks.indexOf(run), 1);
    },
  });
  const dead: string[] = [];
  gate.start((message) => dead.push(message));
  const at = async (ms: number) => {
    now = ms;
    for (const tick of [...ticks]) tick();
    for (let i = 0; i < 3; i += 1) await new Promise((resolve) => setImmediate(resolve));
  };
  await at(0);
  for (const ms of [5_000, 10_000, 20_000, 30_000]) await at(ms);
  assert.equal(checks, 4, 'checked at 0, 10, 20 and 30 s: once per interval, not per tick');
  assert.deepEqual(dead, [], 'failing since 10 s: 20 s is within the 25 s grace');
  await at(40_000);
  assert.deepEqual(dead, ['evidence report dead: r'], 'failing for 30 s: past the grace');
  gate.stop();
  assert.equal(ticks.length, 0, 'stop cancels the timer');
});
