import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCodexAdapter } from '../../lib/core/adapters/codex.ts';
import { codexLines } from '../../lib/demo/fake-agent-lines.ts';
import { MAX_PENDING_ATTEMPTS } from '../../lib/supervise/output/output.ts';
import { runPass } from '../../lib/supervise/run/supervised-pass.ts';
import { fakeRun, settle, testConfig, tracedMachine } from './fakes.ts';

/** NO_PROGRESS under fakes: four Codex turns with an unchanged workspace open an incident for a person; the run goes on. */
test('4 turns with no workspace change → NO_PROGRESS, AWAITING_APPROVAL, and the agent is left alone', async () => {
  const run = fakeRun({ adapter: createCodexAdapter() });
  run.ports.workspace = () => 'unchanged';
  const machine = tracedMachine();
  const result = runPass(
    { argv: ['codex'], cwd: '/', env: {}, runTag: '0'.repeat(32), config: testConfig(), onStall: 'exit' },
    run.ports,
    machine,
  );
  await settle();
  const line = (object: object) => `${JSON.stringify(object)}\n`;
  run.child.print(line(codexLines.threadStarted('01a23000-0000-7000-8000-000000000001')));
  for (let turn = 0; turn < 3; turn += 1)
    run.child.print(line(codexLines.turnStarted()) + line(codexLines.turnCompleted()));
  await settle();
  await run.poll();
  assert.equal(run.records.opened.length, 0, 'three turns are not yet four');
  run.child.print(line(codexLines.turnStarted()) + line(codexLines.turnCompleted()));
  await settle();
  await run.poll();
  assert.deepEqual(
    run.records.moves.map((m) => `${m.kind} ${m.event} ${m.to}`),
    ['NO_PROGRESS approval_required AWAITING_APPROVAL'],
  );
  assert.equal(machine.state, 'running');
  assert.deepEqual(run.tree.stops, []);
  run.child.exit(0);
  assert.equal((await result).exitCode, 0);
});

test('a flood of attempts between two polls keeps only the newest, and the count starts over at the gap', async () => {
  const run = fakeRun({ adapter: createCodexAdapter() });
  run.ports.workspace = () => 'unchanged';
  const result = runPass(
    { argv: ['codex'], cwd: '/', env: {}, runTag: '0'.repeat(32), config: testConfig(), onStall: 'exit' },
    run.ports,
    tracedMachine(),
  );
  await settle();
  const turn = `${JSON.stringify(codexLines.turnStarted())}\n${JSON.stringify(codexLines.turnCompleted())}\n`;
  run.child.print(
    `${JSON.stringify(codexLines.threadStarted('01a23000-0000-7000-8000-000000000001'))}\n${turn.repeat(3)}`,
  );
  await settle();
  await run.poll();
  assert.equal(run.records.opened.length, 0);
  // Past the bound once: the older half is dropped once.
  const flood = MAX_PENDING_ATTEMPTS + MAX_PENDING_ATTEMPTS / 4;
  run.child.print(turn.repeat(flood));
  await settle();
  await run.poll();
  // The older half was dropped unseen: the three turns before the gap no longer count.
  const kept = flood - MAX_PENDING_ATTEMPTS / 2;
  assert.deepEqual(
    run.records.opened.map((i) => i.message),
    [`${kept} attempts in a row produced no new result and no change to the workspace`],
  );
  run.child.exit(0);
  assert.equal((await result).exitCode, 0);
});
