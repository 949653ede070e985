import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { workspaceFingerprinter } from '../../lib/io/workspace-fingerprint.ts';
import { tempDir } from '../helpers/cli.ts';

test('the workspace fingerprint changes with an edit, holds without one, is cached within its interval, and is null outside git', (t) => {
  const dir = tempDir(t);
  execFileSync('git', ['init', '-q'], { cwd: dir });
  writeFileSync(join(dir, 'a.txt'), 'one\n');
  let now = 0;
  const take = workspaceFingerprinter(dir, 5_000, () => now);
  const first = take();
  assert.match(first ?? '', /^[0-9a-f]{16}$/);
  now += 5_000;
  assert.equal(take(), first, 'nothing changed');
  writeFileSync(join(dir, 'a.txt'), 'two\n');
  now += 1_000;
  assert.equal(take(), first, 'within the interval the last fingerprint stands');
  now += 5_000;
  assert.notEqual(take(), first, 'an edit is a new fingerprint');
  assert.equal(workspaceFingerprinter(tempDir(t), 0, () => 0)(), null);
});
