import { test } from 'node:test';
import assert from 'node:assert/strict';
import { demoScenarios, judgeScenario } from '../../lib/demo/scenarios.ts';

const scenarios = demoScenarios({
  deadman: ['deadman'],
  fakeAgent: ['fake-agent'],
  dir: '/d',
  database: '/d/deadman.db',
});

test('a scenario that did not show its stall is named, with what happened instead', () => {
  const hung = scenarios[0]!;
  assert.equal(judgeScenario(hung, 0, 'HUNG_PROCESS → RESOLVED'), null);
  assert.equal(
    judgeScenario(hung, 0, null),
    'A tool call hangs: expected exit 0 and HUNG_PROCESS → RESOLVED, got exit 0 and no incident',
  );
  assert.match(judgeScenario(hung, 'timeout', 'HUNG_PROCESS → RESOLVED')!, /got exit timeout/);
});

test('the demo needs nothing beyond sh and Node: no scenario runs python', () => {
  const commands = scenarios.flatMap((s) =>
    s.steps.flatMap((step) => [...step.argv, ...Object.values(step.env ?? {})]),
  );
  assert.equal(commands.filter((part) => /python/.test(part)).length, 0);
  assert.ok(scenarios.every((s) => s.expect !== undefined));
});
