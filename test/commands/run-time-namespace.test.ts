import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { deadmanBin, runDeadman, tempDir, waitFor } from '../helpers/cli.ts';
import { query } from '../helpers/db.ts';

/**
 * Issue 38.6: a run inside a time namespace (`unshare --time`, some container runtimes) sees
 * boot and monotonic clocks shifted from every reader's outside it. Before, its recorded start
 * time was of its own boot clock, no reader outside saw it again, and each marked the live run
 * lost. Real `unshare --time` (root, Linux 5.6+), readers outside the namespace.
 */

const env = {
  ...process.env,
  DEADMAN_CONFIG: '',
  NOTIFY_SOCKET: '',
  WATCHDOG_USEC: '',
  JOURNAL_STREAM: '',
  INVOCATION_ID: '',
};
const OFFSET_S = '100000';
const skip =
  process.geteuid?.() !== 0
    ? 'needs root for unshare --time'
    : spawnSync('unshare', ['--time', '--boottime', OFFSET_S, 'true']).status !== 0
      ? 'unshare --time is not available here'
      : false;

test(
  'a run in a time namespace shifted by a day is running to readers outside it, and ends as it ended, not lost',
  { skip, timeout: 60_000 },
  async (t) => {
    const dir = tempDir(t);
    const database = join(dir, 'deadman.db');
    const child = spawn(
      'unshare',
      [
        '--time',
        '--boottime',
        OFFSET_S,
        '--monotonic',
        OFFSET_S,
        process.execPath,
        deadmanBin,
        'run',
        '--name',
        'shifted',
        '--database',
        database,
        '--',
        'sleep',
        '30',
      ],
      { env, stdio: 'ignore' },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    t.after(() => child.kill('SIGKILL'));
    await waitFor(() => query(database, 'SELECT id FROM runs').length > 0, 20_000, 'the run row');
    for (const command of [['status', '--json'], ['metrics']]) {
      const read = await runDeadman([...command, '--database', database], { env });
      if (command[0] === 'status')
        assert.equal((JSON.parse(read.stdout) as Array<{ state: string }>)[0]!.state, 'running', read.stdout);
      else assert.match(read.stdout, /deadman_run_running\{[^}]*name="shifted"[^}]*\} 1/);
    }
    assert.deepEqual(
      query(database, 'SELECT lost, ended_at FROM runs'),
      [{ lost: 0, ended_at: null }],
      'no reader closed it as lost',
    );
    child.kill('SIGTERM');
    await exited;
    const after = await runDeadman(['status', '--json', '--database', database], { env });
    assert.doesNotMatch(after.stdout, /lost|killed for good/, after.stdout);
    assert.deepEqual(
      query<{ lost: number }>(database, 'SELECT lost FROM runs').map((r) => r.lost),
      [0],
    );
  },
);
