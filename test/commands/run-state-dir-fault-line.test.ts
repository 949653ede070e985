import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, runProgram, tempDir } from '../helpers/cli.ts';

/**
 * One cause, one line: a state directory this user cannot write (root's, 0755, deadman run as
 * nobody) costs the records, the marker lock, the marker and the health file — said in one
 * line with all of them, not one line each.
 */

const asRoot = process.geteuid?.() === 0;

test(
  'a state directory that cannot be written is one line naming every consequence',
  { skip: !asRoot && 'needs root to run deadman as uid 65534' },
  async (t) => {
    const dir = tempDir(t);
    chmodSync(dir, 0o755);
    const state = join(dir, 'state');
    mkdirSync(state, { mode: 0o755 });
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, DEADMAN_CONFIG: '' };
    const run = await runProgram(
      'setpriv',
      [
        '--reuid=65534',
        '--regid=65534',
        '--clear-groups',
        process.execPath,
        deadmanBin,
        'run',
        '--state-dir',
        state,
        '--poll',
        '200ms',
        '--',
        'sh',
        '-c',
        'sleep 2.5; echo done',
      ],
      { env, cwd: dir },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, 'done\n');
    const lines = run.stderr.trim().split('\n');
    assert.match(
      lines[0]!,
      new RegExp(
        `^deadman: state directory ${state} cannot be written \\(EACCES for uid 65534: ${state} belongs to uid 0, mode 0755\\): not recording, no revive marker, health reports unhealthy; the work goes on$`,
      ),
    );
    assert.match(lines[1]!, /^deadman: run .* · not recording · /, 'the start line');
    assert.match(lines[2]!, /^deadman: run .* completed: exited 0/);
    assert.equal(lines.length, 3, run.stderr);
  },
);
