import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { repoRoot } from './helpers/cli.ts';
import { typescriptSources } from './helpers/lib-sources.ts';

/**
 * Dependencies point one way: cli → commands → supervise → io → core, and no file reaches
 * itself through its imports. The core does no I/O: it imports nothing from node:*. Imports
 * are read whole (multi-line ones, `export … from`, dynamic `import()`) and resolved to files,
 * so a layer is judged by the file an import lands on, not by how its path is spelled. Inside
 * the core, the folders too point one way: a folder that reaches itself through its siblings
 * (config → evidence → config) is one concern split in two, or a shared piece in the wrong one;
 * so do io's, supervise's and commands'.
 */

/** Which layers each layer may import (its own always included); the top-level cli.ts and main.ts may import anything. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  'exit-codes': [],
  core: ['exit-codes'],
  io: ['core', 'exit-codes'],
  supervise: ['io', 'core', 'exit-codes'],
  demo: ['io', 'core', 'exit-codes'],
  commands: ['supervise', 'demo', 'io', 'core', 'exit-codes'],
};

const lib = join(repoRoot, 'lib');

/** Every module specifier a source file names: static imports and re-exports (over any number of lines), and dynamic import(). */
export function importedSpecifiers(text: string): string[] {
  // Anchored at the start of a line, so commented-out imports (`// import`, ` * import`) are not read.
  const statements =
    /^[ \t]*(?:(?:import|export)\b[^;]*?\bfrom|import)\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;
  return [...text.matchAll(statements)].map((m) => (m[1] ?? m[2])!);
}

function layerOf(file: string): string {
  const [first] = relative(lib, file).split('/');
  return first!.replace(/\.ts$/, '');
}

/** lib/ as a graph: each file's imports of other lib/ files, plus the node:* modules it names. */
function importGraph(): Map<string, { files: string[]; builtins: string[] }> {
  const graph = new Map<string, { files: string[]; builtins: string[] }>();
  for (const file of typescriptSources(lib)) {
    const specifiers = importedSpecifiers(readFileSync(file, 'utf8'));
    graph.set(file, {
      files: specifiers.filter((s) => s.startsWith('.')).map((s) => resolve(dirname(file), s)),
      builtins: specifiers.filter((s) => s.startsWith('node:')),
    });
  }
  return graph;
}

/** One import cycle as a path of files (first = last), or null. */
function findCycle(graph: Map<string, { files: string[] }>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): string[] | null => {
    if (state.get(file) === 'done') return null;
    if (state.get(file) === 'open') return [...path.slice(path.indexOf(file)), file];
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file)?.files ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(file, 'done');
    return null;
  };
  for (const file of graph.keys()) {
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return null;
}

/** A layer's folders as a graph: which sibling folders each folder's files import, with one file import per edge to name it. */
function folderGraph(
  graph: Map<string, { files: string[] }>,
  layer: string,
): Map<string, { files: string[]; via: Map<string, string> }> {
  const core = join(lib, layer);
  const folderOf = (file: string) => dirname(relative(core, file));
  const folders = new Map<string, { files: string[]; via: Map<string, string> }>();
  for (const [file, { files }] of graph) {
    if (!file.startsWith(`${core}/`)) continue;
    const from = folderOf(file);
    const folder = folders.get(from) ?? { files: [], via: new Map<string, string>() };
    folders.set(from, folder);
    for (const target of files) {
      const to = folderOf(target);
      if (!target.startsWith(`${core}/`) || to === from || folder.via.has(to)) continue;
      folder.files.push(to);
      folder.via.set(to, `${relative(core, file)} imports ${relative(core, target)}`);
    }
  }
  return folders;
}

test('the import reader sees multi-line imports, re-exports and dynamic imports, and skips comments', () => {
  const text = [
    "import {\n  a,\n  b,\n} from '../core/x.ts';",
    "import type { C } from './c.ts';",
    "export type { D } from './d.ts';",
    "import './side-effect.ts';",
    "// import { nope } from './commented.ts';",
    "/* import { nope } from './block.ts'; */",
    "const e = await import('../io/e.ts');",
  ].join('\n');
  assert.deepEqual(importedSpecifiers(text), ['../core/x.ts', './c.ts', './d.ts', './side-effect.ts', '../io/e.ts']);
});

test('the cycle finder reports a cycle and passes a tree', () => {
  assert.deepEqual(
    findCycle(
      new Map([
        ['a', { files: ['b'] }],
        ['b', { files: ['c'] }],
        ['c', { files: ['a'] }],
      ]),
    ),
    ['a', 'b', 'c', 'a'],
  );
  assert.equal(
    findCycle(
      new Map([
        ['a', { files: ['b', 'c'] }],
        ['b', { files: ['c'] }],
        ['c', { files: [] }],
      ]),
    ),
    null,
  );
});

test('lib/ layers import only downwards, every import resolves to a file, and the core imports no node:* module', () => {
  const graph = importGraph();
  const offences: string[] = [];
  for (const [file, { files, builtins }] of graph) {
    const layer = layerOf(file);
    const allowed = MAY_IMPORT[layer];
    for (const target of files) {
      if (!graph.has(target))
        offences.push(
          `${relative(repoRoot, file)}: imports ${relative(repoRoot, target)}, which is not a lib/ source file`,
        );
      else if (allowed && layerOf(target) !== layer && !allowed.includes(layerOf(target)))
        offences.push(`${relative(repoRoot, file)}: ${layer} imports ${relative(repoRoot, target)}`);
    }
    if (layer === 'core')
      for (const builtin of builtins) offences.push(`${relative(repoRoot, file)}: the core imports ${builtin}`);
  }
  assert.ok(graph.size > 40, `read ${graph.size} files`);
  assert.deepEqual(offences, []);
});

test('lib/ has no import cycle', () => {
  const cycle = findCycle(importGraph());
  assert.equal(cycle && cycle.map((file) => relative(repoRoot, file)).join(' → '), null);
});

/** Every lib/ folder that has folders of its own, with how many at least: each is checked below. */
const FOLDERED_LAYERS = [
  ['core', 8],
  ['supervise', 4],
  ['commands', 2],
  ['io', 10],
] as const;

test('the folder check covers every lib/ folder that has folders, and io/ has no loose files', () => {
  const withFolders = readdirSync(lib).filter(
    (name) =>
      statSync(join(lib, name)).isDirectory() &&
      readdirSync(join(lib, name)).some((child) => statSync(join(lib, name, child)).isDirectory()),
  );
  assert.deepEqual(withFolders.sort(), FOLDERED_LAYERS.map(([layer]) => layer).sort());
  assert.deepEqual(
    readdirSync(join(lib, 'io')).filter((name) => name.endsWith('.ts')),
    [],
    'lib/io/ files outside a folder',
  );
});

for (const [layer, least] of FOLDERED_LAYERS) {
  test(`lib/${layer}/ folders import each other one way: no folder reaches itself through another`, () => {
    const folders = folderGraph(importGraph(), layer);
    assert.ok(folders.size > least, `read ${folders.size} ${layer} folders`);
    const cycle = findCycle(folders);
    const hops = cycle?.slice(1).map((to, i) => folders.get(cycle[i]!)!.via.get(to)!);
    assert.equal(cycle && `${cycle.join(' → ')} (${hops!.join('; ')})`, null);
  });
}

test("supervise/ports.ts owns the loop's interfaces: it takes types from core and its own records, never from io", () => {
  const ports = join(lib, 'supervise', 'ports.ts');
  const fromIo = importGraph()
    .get(ports)!
    .files.filter((target) => layerOf(target) === 'io');
  assert.deepEqual(
    fromIo.map((target) => relative(repoRoot, target)),
    [],
  );
});
