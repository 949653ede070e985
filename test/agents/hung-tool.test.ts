import { test } from 'node:test';
import assert from 'node:assert/strict';
import { query } from '../helpers/db.ts';
import { incidents, narrate } from './harness/records.ts';
import type { Cli } from './harness/clis.ts';
import { runScenario } from './harness/scenario.ts';
import { skipUnlessAgent } from './harness/skip.ts';

/**
 * A tool command whose grandchild hangs, run by the real CLI: deadman (--auto-recover,
 * --hung-timeout 5s) opens a HUNG_PROCESS incident, kills the hung subtree, the model is told
 * the command failed and answers with a final message, and the agent exits 0.
 */

const HANG = 'import subprocess; raise SystemExit(subprocess.Popen(["sleep", "600"]).wait())';
/** Each command, and what the kill target (the hung process, or the wrapper bash that runs it) shows of it. */
const COMMANDS = {
  // Not `sleep 600`: Claude Code refuses a standalone long sleep before running it.
  'no quotes': { command: 'tail -f /dev/null', hung: /tail -f \/dev\/null/ },
  // Single quotes around a script holding double quotes, a double-quoted argument and a $'…' one.
  "single, double and $'…' quotes": { command: `python3 -c '${HANG}' "first arg" $'second\\targ'`, hung: /python3 -c/ },
};

for (const cli of ['codex', 'claude'] as Cli[]) {
  for (const [quoting, { command, hung }] of Object.entries(COMMANDS)) {
    test(
      `${cli}: a hung tool (${quoting}) is killed and the agent finishes 0`,
      { skip: skipUnlessAgent(cli) },
      async (t) => {
        const { run, server } = await runScenario(
          t,
          cli,
          [
            { kind: 'shell', command },
            { kind: 'text', text: 'The command hung and was stopped; done.' },
          ],
          ['--auto-recover', '--hung-timeout', '5s', '--kill-grace', '1s', '--inactivity', '5min', '--timeout', '45s'],
        );
        const finished = await run.finished;
        narrate(t, finished);
        assert.equal(finished.code, 0, finished.stderr);
        assert.deepEqual(incidents(run.database), [{ kind: 'HUNG_PROCESS', state: 'RESOLVED' }]);
        const [action] = query<{ kind: string; target: { cmdline: string[] } }>(
          run.database,
          'SELECT kind, target FROM actions',
        );
        assert.equal(action?.kind, 'TERMINATE_DESCENDANT_PROCESS');
        assert.match(action!.target.cmdline.join(' '), hung);
        const turns = server.turns();
        assert.equal(turns.length, 2, 'the tool call, then the final answer after the tool result');
        assert.match(
          JSON.stringify(turns[1]!.body),
          cli === 'codex' ? /"type":"function_call_output"/ : /"type":"tool_result"/,
          "the model was given the killed tool's result",
        );
      },
    );
  }
}
