import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClaudeAdapter } from '../../lib/core/adapters/claude.ts';
import { claudeLines } from '../../lib/demo/fake-agent-lines.ts';
import { runPass } from '../../lib/supervise/run/supervised-pass.ts';
import { fakeRun, settle, testConfig, tracedMachine } from './fakes.ts';

/**
 * FINISHED_NOT_EXITED under fakes: a Claude that printed its `result` and keeps running is
 * stopped `exit_grace` later, and the run exits with the result's verdict, not 75.
 */

const SESSION = 'c0ffee00-0000-4000-8000-000000000001';

function claudeRun() {
  const run = fakeRun({ adapter: createClaudeAdapter() });
  const machine = tracedMachine();
  const result = runPass(
    {
      argv: ['claude'],
      cwd: '/',
      env: {},
      runTag: '0'.repeat(32),
      config: testConfig({ exit_grace: 30_000 }),
      onStall: 'withhold',
    },
    run.ports,
    machine,
  );
  return { ...run, machine, result };
}

const line = (object: object) => `${JSON.stringify(object)}\n`;

for (const { ok, exitCode, outcome } of [
  { ok: true, exitCode: 0, outcome: 'completed' },
  { ok: false, exitCode: 1, outcome: 'failed' },
]) {
  test(`a ${ok ? 'successful' : 'failed'} result and no exit: stopped after exit_grace, exit ${exitCode}, the incident RESOLVED`, async () => {
    const run = claudeRun();
    await settle();
    run.child.print(line(claudeLines.init(SESSION, '/')) + line(claudeLines.result(SESSION, ok, 'done')));
    await settle();
    run.advance(29_000);
    await run.poll();
    assert.deepEqual(run.tree.stops, [], 'within the grace nothing is stopped');
    run.advance(1_000);
    await run.poll();
    assert.equal(run.machine.stallAction, 'finish', 'never withheld, whatever on_stall says: the work is over');
    assert.deepEqual(run.tree.stops, ['SIGTERM']);
    assert.ok(
      run.notes.some((n) => /^STATUS=FINISHED · the agent printed its final result .* · stopping the agent$/.test(n)),
      run.notes.join('\n'),
    );
    run.child.exit(null, 'SIGTERM');
    const result = await run.result;
    assert.equal(result.exitCode, exitCode);
    assert.equal(result.outcome, outcome);
    assert.equal(result.clean, ok, 'only a successful result clears the revive marker');
    assert.deepEqual(
      run.records.moves.map((m) => `${m.kind} ${m.event} ${m.to}`),
      [
        'FINISHED_NOT_EXITED recovery_allowed RECOVERING',
        'FINISHED_NOT_EXITED action_taken VERIFYING',
        'FINISHED_NOT_EXITED verified RESOLVED',
      ],
    );
  });
}

test('an agent that exits within exit_grace, or starts another turn, opens nothing', async () => {
  const run = claudeRun();
  await settle();
  run.child.print(line(claudeLines.init(SESSION, '/')) + line(claudeLines.result(SESSION, true, 'first')));
  await settle();
  run.advance(20_000);
  // A new turn (system/init of a resumed prompt) clears the result.
  run.child.print(line(claudeLines.init(SESSION, '/')));
  await settle();
  run.advance(20_000);
  await run.poll();
  assert.equal(run.records.opened.length, 0);
  run.child.exit(0);
  const result = await run.result;
  assert.equal(result.exitCode, 0);
  assert.equal(run.records.opened.length, 0);
});
