import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expandGlob, GlobTooLargeError } from '../../../lib/io/evidence/glob.ts';
import { compileGlob, matchesGlob } from '../../../lib/core/evidence/glob-pattern.ts';
import { tempDir } from '../../helpers/cli.ts';

function tree(root: string, files: string[]): void {
  for (const file of files) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), file);
  }
}

const sorted = async (pattern: string, root: string) =>
  (await expandGlob(pattern)).map((p) => p.slice(root.length)).sort();

test('expands *, ? and ** below the literal prefix, skipping hidden names', async (t) => {
  const root = tempDir(t);
  tree(root, [
    'a.csv',
    'b.csv',
    'c.txt',
    '.tmp.csv',
    'x/d.csv',
    'x/y/e.csv',
    'x/.hidden/f.csv',
    'day-1/g.csv',
    'day-22/h.csv',
  ]);
  assert.deepEqual(await sorted(`${root}/*.csv`, root), ['/a.csv', '/b.csv']);
  assert.deepEqual(await sorted(`${root}/.*.csv`, root), ['/.tmp.csv']);
  assert.deepEqual(await sorted(`${root}/**/*.csv`, root), [
    '/a.csv',
    '/b.csv',
    '/day-1/g.csv',
    '/day-22/h.csv',
    '/x/d.csv',
    '/x/y/e.csv',
  ]);
  assert.deepEqual(await sorted(`${root}/day-?/*.csv`, root), ['/day-1/g.csv']);
  assert.deepEqual(await sorted(`${root}/x/**`, root), ['/x', '/x/d.csv', '/x/y', '/x/y/e.csv']);
  assert.deepEqual(await sorted(`${root}/*/y/e.csv`, root), ['/x/y/e.csv']);
  assert.deepEqual(await sorted(`${root}/a.csv`, root), ['/a.csv']);
  assert.deepEqual(await sorted(`${root}/none.csv`, root), []);
  assert.deepEqual(await sorted(`${root}/missing/*.csv`, root), []);
  assert.deepEqual(await sorted(`${root}/a.csv/*`, root), [], 'a file where a directory is expected matches nothing');
});

test('** does not follow symlinked directories, so a loop terminates', async (t) => {
  const root = tempDir(t);
  tree(root, ['d/a.csv']);
  symlinkSync(root, join(root, 'd', 'loop'));
  assert.deepEqual(await sorted(`${root}/**/*.csv`, root), ['/d/a.csv']);
  // A named symlink is still followed, and the match is left for scope checking.
  assert.deepEqual(await sorted(`${root}/d/loop/d/*.csv`, root), ['/d/loop/d/a.csv']);
});

test('a walk over too many entries is refused', async (t) => {
  const root = tempDir(t);
  tree(
    root,
    Array.from({ length: 30 }, (_, i) => `f${i}.csv`),
  );
  await assert.rejects(expandGlob(`${root}/*.csv`, 10), GlobTooLargeError);
  assert.equal((await expandGlob(`${root}/*.csv`, 30)).length, 30);
});

test('matchesGlob over a full listing agrees with the walk (the container path lists with find)', async (t) => {
  const root = tempDir(t);
  tree(root, [
    'a.csv',
    'b.csv',
    'c.txt',
    '.tmp.csv',
    'x/d.csv',
    'x/y/e.csv',
    'x/.hidden/f.csv',
    'day-1/g.csv',
    'day-22/h.csv',
  ]);
  const everything = [
    ...new Set([root, ...(await expandGlob(`${root}/**`))]),
    join(root, '.tmp.csv'),
    join(root, 'x/.hidden'),
    join(root, 'x/.hidden/f.csv'),
  ];
  for (const pattern of [
    '*.csv',
    '.*.csv',
    '**/*.csv',
    'day-?/*.csv',
    'x/**',
    '*/y/e.csv',
    'a.csv',
    'none.csv',
    '**',
    '*/.hidden/*.csv',
  ]) {
    const glob = compileGlob(`${root}/${pattern}`);
    const listed = everything.filter((path) => matchesGlob(glob, path)).sort();
    assert.deepEqual(listed, (await expandGlob(`${root}/${pattern}`)).sort(), pattern);
  }
});
