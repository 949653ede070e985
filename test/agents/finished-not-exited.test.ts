import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Cli } from './harness/clis.ts';
import { actionKinds, incidents, narrate, runs } from './harness/records.ts';
import { runScenario } from './harness/scenario.ts';
import { skipUnlessAgent } from './harness/skip.ts';

/**
 * Finished but not exited: the agent printed its completion event and the process stays alive.
 * Neither real CLI can be made to do that on purpose (both exit once the turn is done), so the
 * command deadman runs is honestly a wrapper: `sh -c '<cli …>; exec sleep 600'` prints the real
 * CLI's output, then stays with stdout open. deadman reads the real completion line, stops the
 * process after --exit-grace and exits with the result's verdict, 0.
 */

const wrap = (argv: string[]) => ['sh', '-c', '"$@"; exec sleep 600', 'sh', ...argv];

for (const cli of ['codex', 'claude'] as Cli[]) {
  test(
    `${cli}: the completion printed and the process still alive → stopped after exit_grace, exit 0`,
    { skip: skipUnlessAgent(cli) },
    async (t) => {
      const { run, server } = await runScenario(
        t,
        cli,
        [{ kind: 'text', text: 'Finished the task.' }],
        ['--adapter', cli, '--exit-grace', '3s', '--timeout', '60s'],
        { wrap },
      );
      const finished = await run.finished;
      narrate(t, finished);
      const completion = cli === 'codex' ? /^\{"type":"turn\.completed"/m : /"type":"result"/;
      assert.match(finished.stdout, completion, 'the real CLI printed its completion event');
      assert.equal(finished.code, 0, finished.stderr);
      assert.match(
        finished.stderr,
        /FINISHED_NOT_EXITED: the agent printed its final result \(success\) and has not exited 3s later/,
      );
      assert.deepEqual(incidents(run.database), [{ kind: 'FINISHED_NOT_EXITED', state: 'RESOLVED' }]);
      assert.deepEqual(actionKinds(run.database), ['END_FINISHED_RUN']);
      assert.equal(runs(run.database).length, 1);
      assert.deepEqual(server.processes(), [], 'the lingering process was stopped');
    },
  );
}
