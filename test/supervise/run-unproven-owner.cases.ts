import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCodexAdapter } from '../../lib/core/adapters/codex.ts';
import { codexLines } from '../../lib/demo/fake-agent-lines.ts';
import { runPass } from '../../lib/supervise/run/supervised-pass.ts';
import { fakeRun, proc, ROOT_PID, settle, testConfig, tracedMachine } from './fakes.ts';

/**
 * Issue 25: when nobody can tell whose an idle process is, deadman waits for a person instead of
 * guessing — even with auto_recover. Under fakes: the agent's first tool call ends; a process
 * appears (the agent's direct child, its own session); then a file edit (no command) opens and
 * everything goes quiet. The process was born after the first call and before the open one,
 * and runs no known command: HUNG_PROCESS is AWAITING_APPROVAL, nothing is killed.
 */

const line = (object: object) => `${JSON.stringify(object)}\n`;

test('an idle process whose owner is unproven waits for a person, even with auto_recover; nothing is killed', async () => {
  const run = fakeRun({ adapter: createCodexAdapter() });
  const result = runPass(
    {
      argv: ['codex'],
      cwd: '/',
      env: {},
      runTag: '0'.repeat(32),
      config: testConfig({ auto_recover: true, hung_timeout: 2_000 }),
      onStall: 'exit',
    },
    run.ports,
    tracedMachine(),
  );
  await settle();
  run.child.print(
    line(codexLines.threadStarted('01a23000-0000-7000-8000-0000000000cc')) +
      line(codexLines.turnStarted()) +
      line(codexLines.commandStarted('item_0', 'true')) +
      line(codexLines.commandCompleted('item_0', 'true', { exitCode: 0, output: '' })),
  );
  await settle();
  run.advance(1_000);
  run.tree.processes.push(proc(300, ROOT_PID, { cmdline: ['node', 'watcher.js'] }));
  await run.poll();
  run.advance(1_000);
  run.child.print(line(codexLines.fileChange('started', 'item_1', '/w/src/parser.ts')));
  await settle();
  for (let i = 0; i < 4; i += 1) {
    run.advance(1_000);
    await run.poll();
  }
  assert.deepEqual(
    run.records.decisions.map((d) => `${d.action} ${d.verdict}`),
    ['TERMINATE_DESCENDANT_PROCESS await_approval'],
    JSON.stringify(run.logs),
  );
  assert.match(
    run.records.decisions[0]!.reason,
    /nothing proves the target is an open tool call's — it may be a helper the agent started \(nothing proves whose the idle process is — pid 300 \(node watcher.js\): born before open tool call item_1, outside its window, and their commands are unknown/,
  );
  assert.deepEqual(
    run.records.moves.map((m) => `${m.kind} ${m.event} ${m.to}`),
    ['HUNG_PROCESS approval_required AWAITING_APPROVAL'],
  );
  assert.deepEqual(run.tree.terminated, [], 'nothing killed');
  run.child.exit(0);
  await result;
});
