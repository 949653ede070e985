import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, runDeadman, runProgram, tempDir } from '../helpers/cli.ts';

/**
 * A caller who may not read the state directory (or the database) is told so: exit 74 and one
 * line naming the place and the user — never "no runs yet", "no incidents recorded" or an
 * empty metrics page, and never "does not exist" for a file that is there. The reader runs as
 * nobody (the tests run as root, who may read anything).
 */
const asRoot = process.getuid?.() === 0;

const asNobody = (args: string[], env: NodeJS.ProcessEnv) =>
  runProgram('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, deadmanBin, ...args], {
    env,
  });

async function recordedState(t: { after(fn: () => void): void }) {
  const dir = tempDir(t);
  // Only the state directory is closed to others: the way to it stays open.
  chmodSync(dir, 0o755);
  const state = join(dir, 'state');
  const env = { ...process.env, DEADMAN_CONFIG: '', NOTIFY_SOCKET: '', STATE_DIRECTORY: '', HOME: '/nonexistent' };
  const ran = await runDeadman(['run', '--state-dir', state, '--name', 'job', '--', 'sh', '-c', 'exit 3'], { env });
  assert.equal(ran.code, 3, ran.stderr);
  return { state, env, database: join(state, 'deadman.db') };
}

test(
  'an unreadable state directory: status, incidents, report and metrics exit 74 with one line naming it and the user',
  { skip: !asRoot && 'needs root to run the reader as nobody' },
  async (t) => {
    const { state, env } = await recordedState(t);
    chmodSync(state, 0o700);
    for (const command of [
      ['status'],
      ['status', '--json'],
      ['incidents'],
      ['report', 'latest'],
      ['metrics'],
      ['metrics', '--json'],
    ]) {
      const result = await asNobody([...command, '--state-dir', state], env);
      assert.equal(result.code, 74, `${command.join(' ')}: ${result.stdout}${result.stderr}`);
      assert.equal(result.stdout, '', `${command.join(' ')} printed nothing as if there were nothing`);
      assert.equal(
        result.stderr,
        `deadman: cannot read ${state}: permission denied for nobody (uid 65534); run as its owner (or root), or give --state-dir / --database\n`,
        command.join(' '),
      );
    }
    const health = await asNobody(['health', '--name', 'job'], { ...env, STATE_DIRECTORY: state });
    assert.equal(health.code, 74, health.stderr);
  },
);

test(
  'status --database on a file that is there but unreadable says so (74), not "does not exist"',
  { skip: !asRoot && 'needs root to run the reader as nobody' },
  async (t) => {
    const { state, env, database } = await recordedState(t);
    chmodSync(state, 0o755);
    chmodSync(database, 0o600);
    const result = await asNobody(['status', '--database', database], env);
    assert.equal(result.code, 74, result.stderr);
    assert.equal(
      result.stderr,
      `deadman: cannot read ${database}: permission denied for nobody (uid 65534); run as its owner (or root), or give --state-dir / --database\n`,
    );
  },
);
