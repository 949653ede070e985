import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '../helpers/cli.ts';
import type { Cli } from './harness/clis.ts';
import { runAgent } from './harness/deadman-run.ts';
import { narrate, runs } from './harness/records.ts';
import { PROMPT, runScenario } from './harness/scenario.ts';
import { skipUnlessAgent } from './harness/skip.ts';

/**
 * A host that dies mid-turn: while the agent's tool runs, deadman, the agent and the tool are
 * SIGKILLed at once (everything in the namespace but the model server, which stands for the
 * remote backend). The next start of the same `deadman run` finds the revive marker and resumes
 * the session; the model sees the conversation so far and the revive message, and the resumed
 * turn completes.
 */

const TOOL = 'tail -f /dev/null';

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/**
 * Whether the agent's own session file (under the test's homes) holds the tool call yet. The CLI
 * writes it a moment after it starts the tool; a host that dies before that loses the call with
 * the agent, and the resumed session cannot carry what was never written. That is the agent's
 * persistence, not deadman's, so the host dies once the call is on disk.
 */
function sessionRecordsTool(dir: string): boolean {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
    (path) => path.endsWith('.jsonl') && /^(home|codex-home)\//.test(path),
  );
  return files.some((path) => {
    try {
      return readFileSync(join(dir, path), 'utf8').includes(TOOL);
    } catch {
      return false;
    }
  });
}

for (const cli of ['codex', 'claude'] as Cli[]) {
  test(
    `${cli}: deadman and the agent killed mid-turn, the next start revives the session to exit 0`,
    { skip: skipUnlessAgent(cli) },
    async (t) => {
      const { dir, server, agent, flags, run } = await runScenario(
        t,
        cli,
        [
          { kind: 'shell', command: TOOL },
          { kind: 'text', text: 'Revived; the task is done.' },
        ],
        ['--timeout', '90s'],
      );
      const started = performance.now();
      await waitFor(
        () => server.processes().some((pid) => commandLine(pid).startsWith('tail -f')),
        60_000,
        'the tool to run',
      );
      await waitFor(() => sessionRecordsTool(dir), 30_000, 'the session file to hold the tool call');
      server.killHost();
      const died = await run.finished;
      assert.equal(died.signal, 'SIGKILL');
      assert.equal(server.processes().length, 0, 'nothing of the dead host is left');

      const revived = runAgent(server, dir, agent, flags);
      t.after(() => revived.child.kill('SIGKILL'));
      const finished = await revived.finished;
      t.diagnostic(`both runs: ${((performance.now() - started) / 1000).toFixed(1)} s`);
      narrate(t, finished);
      assert.equal(finished.code, 0, finished.stderr);
      const [lost, resumed] = runs(run.database);
      assert.equal(lost?.outcome, 'lost', 'the next start recorded the killed run as lost');
      assert.equal(resumed?.outcome, 'completed');
      assert.ok(resumed?.revive_of, 'the second run is a revive');
      assert.equal(resumed?.session_id, lost?.session_id, 'of the same session');
      const turns = server.turns();
      assert.equal(turns.length, 2);
      const conversation = JSON.stringify(turns[1]!.body);
      assert.ok(
        conversation.includes(PROMPT) && conversation.includes('tail -f /dev/null'),
        'the resumed request carries the interrupted turn',
      );
      assert.match(conversation, /Continue the interrupted task/);
    },
  );
}
