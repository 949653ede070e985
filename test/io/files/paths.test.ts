import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir } from '../../../lib/io/files/paths.ts';
import { tempDir } from '../../helpers/cli.ts';

const mode = (path: string) => statSync(path).mode & 0o777;

test('ensurePrivateDir makes each missing directory 0700 whatever the umask, and leaves existing ones as they are', (t) => {
  const root = tempDir(t);
  chmodSync(root, 0o755);
  const previous = process.umask(0o022);
  try {
    ensurePrivateDir(join(root, 'a', 'b', 'c'));
  } finally {
    process.umask(previous);
  }
  assert.deepEqual(
    [mode(root), mode(join(root, 'a')), mode(join(root, 'a', 'b')), mode(join(root, 'a', 'b', 'c'))],
    [0o755, 0o700, 0o700, 0o700],
  );
  ensurePrivateDir(join(root, 'a', 'b', 'c'));
});

// mkdirSync's own `recursive` retries forever under /proc (ENOENT for every mkdir there): a
// synchronous hang at full CPU, so it is tried in a child that is killed if it takes too long.
test('a directory that cannot be made (under /proc) fails at once with its errno', () => {
  const paths = new URL('../../../lib/io/files/paths.js', import.meta.url).href;
  const script = `const { ensurePrivateDir } = await import(${JSON.stringify(paths)});
try { ensurePrivateDir('/proc/deadman-none/state'); } catch (error) { process.stdout.write(error.code); }`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  assert.equal(child.signal, null, 'it hung and was killed');
  assert.equal(child.stdout, 'ENOENT');
});
