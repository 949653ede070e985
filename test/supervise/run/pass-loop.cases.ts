import { test } from 'node:test';
import assert from 'node:assert/strict';
import { supervisePasses, type PassEdges } from '../../../lib/supervise/run/pass-loop.ts';
import type { PassResult } from '../../../lib/supervise/run/outcome.ts';
import type { EarlierBackoffs } from '../../../lib/core/detect/usage-limit.ts';
import type { Incident } from '../../../lib/supervise/records/records.ts';

/** The pass loop with fake edges: backoffs counted across usage-limit passes, a recovery no pass follows. */

const base = { exitCode: 75, reraise: null, reason: 'r', clean: false, sessionId: null } as const;

function edgesFor(results: Array<PassResult | number>, overrides: Partial<PassEdges<number>> = {}) {
  const seen = { backoffs: [] as EarlierBackoffs[], unsettled: [] as string[], verifying: [] as Array<number | null> };
  const edges: PassEdges<number> = {
    supervise: async (_pass, _why, verifying) => {
      seen.verifying.push(verifying?.incident.id ?? null);
      return results.shift()!;
    },
    resume: (pass) => pass + 1,
    respawn: (pass) => pass + 1,
    waitForUsageReset: async (_result, earlier) => {
      seen.backoffs.push(earlier);
      return { resume: true, backoffMs: 1_000 };
    },
    unsettled: (_pending, why) => seen.unsettled.push(why),
    logger: { log: () => {} },
    ...overrides,
  };
  return { edges, seen };
}

test('throttle backoffs in a row are counted for the wait; any other outcome starts the count over', async () => {
  const throttled: PassResult = { ...base, outcome: 'usage-limit', usageThrottle: true, usageResetAt: null };
  const { edges, seen } = edgesFor([
    throttled,
    throttled,
    { ...base, outcome: 'cancel-resume' },
    throttled,
    { ...base, exitCode: 0, outcome: 'completed' },
  ]);
  assert.deepEqual(await supervisePasses(0, 5, edges), { exitCode: 0, reraise: null });
  assert.deepEqual(seen.backoffs, [
    { count: 0, waitedMs: 0 },
    { count: 1, waitedMs: 1_000 },
    { count: 0, waitedMs: 0 },
  ]);
});

test("a resume's incident goes to the next pass; a respawn that cannot start leaves it to unsettled, not VERIFYING for ever", async () => {
  const incident: Incident = {
    id: 7,
    kind: 'SESSION_BUDGET_RISK',
    state: 'VERIFYING',
    message: 'over budget',
    attempts: 0,
  };
  const respawn: PassResult = { ...base, outcome: 'respawn', verifying: { incident } };
  const followed = edgesFor([respawn, { ...base, exitCode: 0, outcome: 'recovered_and_resumed' }]);
  await supervisePasses(0, 5, followed.edges);
  assert.deepEqual(followed.seen.verifying, [null, 7]);
  const unstarted = edgesFor([respawn], { respawn: () => null });
  await supervisePasses(0, 5, unstarted.edges);
  assert.deepEqual(unstarted.seen.unsettled, ['no fresh session followed: the command has no task to start one with']);
  const spent = edgesFor([respawn, respawn]);
  assert.deepEqual(await supervisePasses(0, 1, spent.edges), { exitCode: 69, reraise: null });
  assert.deepEqual(spent.seen.unsettled, ['no fresh session followed: 1 in a row ran over budget']);
});
