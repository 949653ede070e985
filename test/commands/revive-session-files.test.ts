import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMarker } from '../../lib/io/revive/markers.ts';
import { readProcStat } from '../../lib/io/process/process-identity.ts';
import { isZombie } from '../../lib/core/process/owned-tree.ts';
import { runDeadman, tempDir, waitFor } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';
import { argvLog, killToolsOf } from '../helpers/fake-agent.ts';
import { interruptedRollout } from '../helpers/session-file-revive.ts';

/**
 * A session `deadman revive` finds only in the agent's own files (no marker) is resumed as a
 * marker's is: a signed marker is written for it, and a supervising `deadman run` (here the
 * detached fallback: no service manager) resumes it, counting the revive from the file.
 */

const SESSION = '01a23100-0000-7000-8000-0000000000c1';

test('a session found only in a Codex rollout is resumed under a supervising deadman run, and a second hook does not start it again', async (t) => {
  const dir = tempDir(t);
  t.after(() => killToolsOf(SESSION));
  const rollout = interruptedRollout(dir, SESSION, dir);
  const state = join(dir, 'state');
  const config = join(dir, 'deadman.toml');
  writeFileSync(
    config,
    `state_dir = ${JSON.stringify(state)}\n[revive]\ndelay = "0"\nmax_age = "1h"\nstart_timeout = "10s"\n${rollout.toml}`,
  );
  const log = join(dir, 'argv.log');
  const env = {
    ...process.env,
    ...rollout.env,
    FAKE_AGENT_ARGV_LOG: log,
    FAKE_AGENT_LINGER_MS: '3000',
    HOME: dir,
    NOTIFY_SOCKET: '',
    DEADMAN_CONFIG: '',
    INVOCATION_ID: '',
    MANAGERPID: '',
  };
  const revive = () => runDeadman(['revive', '--config', config, '--json'], { env, cwd: dir });

  const first = await revive();
  assert.equal(first.code, 0, first.stderr);
  assert.match(
    first.stderr,
    new RegExp(`revived session ${SESSION} \\(2/5\\) — ${rollout.name}, supervised by deadman run pid \\d+, detached`),
    "the file's earlier revive prompt counts",
  );
  const pid = Number(/supervised by deadman run pid (\d+), detached/.exec(first.stderr)![1]);
  await waitFor(() => argvLog(log).length > 0, 10_000, 'the resumed agent');

  const second = await revive();
  assert.equal(second.code, 0, second.stderr);
  assert.deepEqual(
    (JSON.parse(second.stdout) as Array<{ name: string; action: string }>).map((row) => [row.name, row.action]),
    [[rollout.name, 'skip']],
  );

  await waitFor(
    () => {
      const stat = readProcStat(pid);
      return stat === null || isZombie(stat);
    },
    20_000,
    'the supervising deadman run to end',
  );
  assert.equal(argvLog(log).length, 1, 'resumed once');
  assert.deepEqual(argvLog(log)[0]!.slice(0, 12), [
    'codex',
    'exec',
    '--json',
    '--skip-git-repo-check',
    '-s',
    'workspace-write',
    '-m',
    'fake-model',
    '-C',
    dir,
    'resume',
    SESSION,
  ]);
  assert.deepEqual(query(join(state, 'deadman.db'), 'SELECT name, revive_of, exit_code FROM runs'), [
    { name: rollout.name, revive_of: SESSION, exit_code: 0 },
  ]);
  assert.deepEqual(
    query(join(state, 'deadman.db'), 'SELECT session_id, attempt, budget FROM revives'),
    [{ session_id: SESSION, attempt: 2, budget: 5 }],
    'counted once, by the run',
  );
  const marker = await readMarker(join(state, 'markers'), rollout.name);
  assert.ok(marker.status === 'ok', JSON.stringify(marker));
  assert.deepEqual([marker.marker.state, marker.marker.sessionId], ['completed', SESSION]);
});
