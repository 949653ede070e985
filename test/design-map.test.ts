import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './helpers/cli.ts';

/**
 * docs/design.md's "A map of lib/" names every folder of lib/ and no folder that is gone, so a
 * newcomer finds a behaviour from the map in one hop and the map cannot drift from the tree.
 */

function folders(dir: string, prefix: string): string[] {
  return readdirSync(dir)
    .filter((name) => statSync(join(dir, name)).isDirectory())
    .flatMap((name) => [`${prefix}${name}/`, ...folders(join(dir, name), `${prefix}${name}/`)]);
}

function mapSection(): string {
  const design = readFileSync(join(repoRoot, 'docs/design.md'), 'utf8');
  const start = design.indexOf('\n## A map of lib/\n');
  assert.notEqual(start, -1, 'docs/design.md has no "## A map of lib/" section');
  const end = design.indexOf('\n## ', start + 1);
  return design.slice(start, end === -1 ? undefined : end);
}

test('the map in docs/design.md names every folder of lib/ and only those', () => {
  const named = new Set([...mapSection().matchAll(/`(lib\/[\w/-]+\/)`/g)].map((m) => m[1]!));
  const actual = folders(join(repoRoot, 'lib'), 'lib/');
  assert.deepEqual(
    actual.filter((folder) => !named.has(folder)),
    [],
    'folders of lib/ the map does not name',
  );
  assert.deepEqual(
    [...named].filter((folder) => !actual.includes(folder)),
    [],
    'folders the map names that lib/ does not have',
  );
});
