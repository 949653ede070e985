import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';

test('a run restarted into the same stall adds to its open incident; report and incidents show the count and times', async (t) => {
  const dir = tempDir(t);
  const config = join(dir, 'deadman.toml');
  writeFileSync(
    config,
    `name = "loop"\nstate_dir = ${JSON.stringify(dir)}\ninactivity = "1s"\npoll = "200ms"\nstop_grace = "1s"\n`,
  );
  const env = { ...process.env, DEADMAN_CONFIG: '', NOTIFY_SOCKET: '', WATCHDOG_USEC: '', INVOCATION_ID: '' };
  const deadman = (args: string[]) => runDeadman([args[0]!, '--config', config, ...args.slice(1)], { cwd: dir, env });
  for (let restart = 0; restart < 3; restart++) {
    const run = await deadman(['run', '--', 'sleep', '30']);
    assert.equal(run.code, 75, run.stderr);
  }
  const list = JSON.parse((await deadman(['incidents', '--json'])).stdout) as Array<{
    id: number;
    recurrences: number;
    state: string;
  }>;
  assert.equal(list.length, 1, JSON.stringify(list));
  assert.equal(list[0]!.recurrences, 2);
  assert.equal(list[0]!.state, 'ESCALATED');
  const report = await deadman(['report', 'latest']);
  assert.match(
    report.stdout,
    /recurred 2 times after restarts, the same way:\n {4}\S+ \S+Z {2}run #2 .*\n {4}\S+ \S+Z {2}run #3 /,
  );
  const json = JSON.parse((await deadman(['report', 'latest', '--json'])).stdout) as {
    recurrences: Array<{ at: string; run_id: number }>;
  };
  assert.deepEqual(
    json.recurrences.map((r) => r.run_id),
    [2, 3],
  );
});
