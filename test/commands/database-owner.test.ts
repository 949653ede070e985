import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chownSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';

/**
 * Issue 38.3: a database another user made in a shared state directory is not adopted. Before,
 * deadman chmodded it 0600 and recorded into it, and its owner could read every record. The run
 * still runs the work and says once, in one line, that it records nothing; the file is left as
 * it was. Needs root (chown to nobody).
 */

const env = {
  ...process.env,
  DEADMAN_CONFIG: '',
  NOTIFY_SOCKET: '',
  WATCHDOG_USEC: '',
  JOURNAL_STREAM: '',
  INVOCATION_ID: '',
};
const NOBODY = 65534;
const skip = process.geteuid?.() === 0 ? false : 'needs root to give a file to another user';

for (const suffix of ['', '-wal']) {
  test(
    `a deadman.db${suffix} owned by another user in a shared state directory: refused in one line, never written or chmodded`,
    { skip },
    async (t) => {
      const state = join(tempDir(t), 'shared');
      mkdirSync(state, { mode: 0o1777 });
      const planted = join(state, `deadman.db${suffix}`);
      if (suffix !== '') writeFileSync(join(state, 'deadman.db'), '', { mode: 0o600 });
      writeFileSync(planted, '', { mode: 0o644 });
      chownSync(planted, NOBODY, NOBODY);
      const run = await runDeadman(['run', '--state-dir', state, '--', 'sh', '-c', 'echo work'], { env });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, 'work\n', 'the work runs');
      const lines = run.stderr
        .split('\n')
        .filter((line) => line.includes(`${planted}: owned by uid ${NOBODY}, not by this user (uid 0)`));
      assert.equal(lines.length, 1, run.stderr);
      assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
      const after = statSync(planted);
      assert.deepEqual([after.uid, after.mode & 0o777, after.size], [NOBODY, 0o644, 0], 'left as it was');
    },
  );
}
