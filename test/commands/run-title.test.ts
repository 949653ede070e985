import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, tempDir, waitFor } from '../helpers/cli.ts';

/** In ps and `systemctl status` the main process is `deadman run NAME`, not `node …/deadman.js` or MainThread. */
test(
  'a running deadman shows as "deadman run NAME" in /proc cmdline and comm',
  { skip: process.platform !== 'linux' && 'reads /proc' },
  async (t) => {
    const dir = tempDir(t);
    const env = { ...process.env, STATE_DIRECTORY: join(dir, 'state'), DEADMAN_CONFIG: '', NOTIFY_SOCKET: '' };
    const child = spawn(
      process.execPath,
      [deadmanBin, 'run', '--name', 'titled', '--', 'sh', '-c', 'echo started; exec sleep 30'],
      { env, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    t.after(() => child.kill('SIGKILL'));
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
    await waitFor(() => output.includes('started'), 10_000, 'the child to start');
    const cmdline = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').replace(/\0+$/, '');
    assert.equal(cmdline, 'deadman run titled');
    // The kernel's comm is cut at 15 bytes; it is what top and the journal's _COMM show.
    assert.equal(readFileSync(`/proc/${child.pid}/comm`, 'utf8').trim(), 'deadman run tit');
  },
);
