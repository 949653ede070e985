import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCodexAdapter } from '../../lib/core/adapters/codex.ts';
import { codexLines } from '../../lib/demo/fake-agent-lines.ts';
import { runPass } from '../../lib/supervise/run/supervised-pass.ts';
import { fakeRun, settle, testConfig, tracedMachine } from './fakes.ts';

/**
 * "An action fingerprint is never reused" under fakes: two passes of one run (they share
 * `actionsTaken`, as `deadman run`'s passes do) see the same session fail the same way. The
 * first pass's CANCEL_AND_RESUME is allowed; the second is denied, recorded as a denial, and
 * the incident escalates with the agent left alone.
 */

const SESSION = '01a23000-0000-7000-8000-0000000000aa';
const FAILING = 'npm test';
const line = (object: object) => `${JSON.stringify(object)}\n`;

async function failingPass(actionsTaken: Set<string>) {
  const run = fakeRun({ adapter: createCodexAdapter() });
  run.ports.workspace = () => 'unchanged';
  const machine = tracedMachine();
  const result = runPass(
    {
      argv: ['codex'],
      cwd: '/',
      env: {},
      runTag: '0'.repeat(32),
      config: testConfig({ auto_recover: true }),
      onStall: 'exit',
      actionsTaken,
    },
    run.ports,
    machine,
  );
  await settle();
  run.child.print(line(codexLines.threadStarted(SESSION)) + line(codexLines.turnStarted()));
  for (let i = 0; i < 3; i += 1) {
    run.child.print(
      line(codexLines.commandStarted(`item_${i}`, FAILING)) +
        line(codexLines.commandCompleted(`item_${i}`, FAILING, { exitCode: 1, output: 'FAIL parser.test.ts\n' })),
    );
  }
  await settle();
  await run.poll();
  return { run, machine, result };
}

test('the same CANCEL_AND_RESUME on the same failure of the same session is denied on its second time in a run', async () => {
  const actionsTaken = new Set<string>();
  const first = await failingPass(actionsTaken);
  assert.deepEqual(
    first.run.records.decisions.map((d) => `${d.action} ${d.verdict}`),
    ['CANCEL_AND_RESUME allow'],
  );
  assert.deepEqual(first.run.tree.stops, ['SIGINT'], 'the first time the agent is interrupted to resume it');
  first.run.child.exit(1);
  assert.equal((await first.result).outcome, 'cancel-resume');
  assert.equal(actionsTaken.size, 1);

  const second = await failingPass(actionsTaken);
  const [denial] = second.run.records.decisions;
  assert.equal(denial?.verdict, 'deny');
  assert.match(
    denial.reason,
    /CANCEL_AND_RESUME was already taken for this stall and target in this run .* never reused/,
  );
  assert.deepEqual(
    second.run.records.moves.map((m) => `${m.kind} ${m.event} ${m.to}`),
    ['REPEATED_FAILURE escalate ESCALATED'],
  );
  assert.deepEqual(second.run.tree.stops, [], 'a denied action is not taken');
  assert.equal(second.machine.state, 'running');
  assert.ok(
    second.run.logs.some((l) => /incident -?\d+ ESCALATED: CANCEL_AND_RESUME was already taken/.test(l.message)),
    JSON.stringify(second.run.logs),
  );
  second.run.child.exit(0);
  assert.equal((await second.result).exitCode, 0);
});

test('without a shared record of actions taken (a new run) the same action is allowed again', async () => {
  const first = await failingPass(new Set());
  first.run.child.exit(1);
  await first.result;
  const again = await failingPass(new Set());
  assert.deepEqual(
    again.run.records.decisions.map((d) => d.verdict),
    ['allow'],
  );
  again.run.child.exit(1);
  await again.result;
});
