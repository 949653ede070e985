import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runDeadman, tempDir } from '../helpers/cli.ts';

/**
 * `--database /dev/null` (someone's way to say "record nothing") made a root deadman chmod the
 * device itself to 0600, and every other user's `> /dev/null` then failed with EACCES. A device
 * or a pipe at the database's path is refused in one line before anything opens or chmods it;
 * the run goes on unrecorded. Tested on a device node of our own (the same major and minor as
 * /dev/null, needs root) and on a FIFO (any user), never on the host's /dev/null.
 */

const env = {
  ...process.env,
  DEADMAN_CONFIG: '',
  NOTIFY_SOCKET: '',
  WATCHDOG_USEC: '',
  JOURNAL_STREAM: '',
  INVOCATION_ID: '',
};

const SPECIAL_FILES: Record<string, { make(path: string): void; skip: string | false }> = {
  'a character device': {
    make: (path) => execFileSync('mknod', [path, 'c', '1', '3']),
    skip: process.geteuid?.() === 0 ? false : 'needs root to make a device node',
  },
  'a FIFO': { make: (path) => execFileSync('mkfifo', [path]), skip: false },
};

for (const [what, special] of Object.entries(SPECIAL_FILES)) {
  test(
    `${what} given as --database: refused in one line, its mode unchanged, the work runs`,
    { skip: special.skip },
    async (t) => {
      const path = join(tempDir(t), 'null');
      special.make(path);
      chmodSync(path, 0o666);
      const run = await runDeadman(['run', '--database', path, '--', 'sh', '-c', 'echo work'], { env });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, 'work\n');
      assert.equal(
        run.stderr.split('\n').filter((line) => line.includes(`${path}: not a regular file`)).length,
        1,
        run.stderr,
      );
      assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
      assert.equal(statSync(path).mode & 0o777, 0o666, 'its mode is left as it was');
    },
  );
}
