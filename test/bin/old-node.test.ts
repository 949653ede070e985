import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers/cli.ts';

/** The Node a unit's `#!/usr/bin/env node` finds on a Debian host; the pinned one runs the tests. */
const systemNode = ['/usr/bin/node', '/usr/bin/nodejs'].find(existsSync);
const systemVersion = systemNode
  ? spawnSync(systemNode, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim()
  : '';
const [major = 0, minor = 0] = systemVersion.split('.').map(Number);
const tooOld = major < 22 || (major === 22 && minor < 13);

test(
  'under a Node older than 22.13 the entry says in one line which Node it found, where a newer one is, and exits 78',
  {
    skip: !systemNode
      ? 'no system Node at /usr/bin/node'
      : !tooOld
        ? `the system Node ${systemVersion} is new enough`
        : false,
  },
  () => {
    const run = spawnSync(systemNode!, [join(repoRoot, 'bin', 'deadman.js'), 'status'], {
      encoding: 'utf8',
      env: { PATH: '/usr/bin:/bin', HOME: '/nonexistent' },
    });
    assert.equal(run.status, 78, 'EX_CONFIG, which the units do not restart');
    const lines = run.stderr.trim().split('\n');
    assert.equal(lines.length, 1, run.stderr);
    assert.match(lines[0]!, new RegExp(`this is v${systemVersion.replaceAll('.', '\\.')} at ${systemNode}`));
    const pinned = join(repoRoot, 'node_modules', 'node', 'bin', 'node');
    assert.ok(lines[0]!.includes(`is at ${pinned}`), `names the newer Node of the checkout: ${lines[0]}`);
    assert.ok(lines[0]!.includes(`ExecStart=${pinned} ${join(repoRoot, 'bin', 'deadman.js')}`));
    assert.equal(run.stdout, '');
  },
);
