#!/usr/bin/env node
// Build step after `tsc` (npm run build): bundles the CLI into dist/bundle/ so a start reads a
// handful of files instead of ~100 modules (start-up is most of what `deadman run -- true`
// costs). Each lazily imported module (yargs and the other commands, zod, the TOML parser, the
// agent adapters) stays a chunk of its own, loaded only by the start that needs it.
// bin/deadman.js uses the bundle only while it is newer than the tsc output it came from.
import { build } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const deadmanRequire = createRequire(import.meta.url);

/**
 * zod's `z` namespace re-exports every locale (about half of zod's size); deadman phrases its
 * own messages and uses the English default zod registers itself, so the other locales are left
 * out of the bundle.
 */
const englishOnlyZod = {
  name: 'english-only-zod',
  setup(onBuild) {
    onBuild.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, () => ({ path: 'zod-locales', namespace: 'english-only-zod' }));
    onBuild.onLoad({ filter: /.*/, namespace: 'english-only-zod' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      resolveDir: root,
    }));
  },
};

/**
 * Node built-ins come in through require(), not an ESM import: Node builds an ESM namespace of
 * every export, which reads the lazy ones too — `import … from 'node:fs'` loads fs/promises
 * and readline, 'node:util' loads worker_threads, about 30 internal modules a start does not
 * use. Each importing file gets a module of its own exporting just the names it imports, since
 * reading some exports (util.diff, util.TextDecoder) loads more of Node as well.
 */
const builtinsThroughRequire = {
  name: 'builtins-through-require',
  setup(onBuild) {
    onBuild.onResolve({ filter: /^[a-z_/:]+$/ }, (args) => (
      args.kind === 'import-statement' && isBuiltin(args.path)
        // One module per importer: esbuild knows a module by its path alone.
        ? { path: `${args.path}?from=${args.importer}`, namespace: 'builtin-through-require', pluginData: { builtin: args.path, names: importedNames(args.importer, args.path) } }
        : undefined
    ));
    onBuild.onLoad({ filter: /.*/, namespace: 'builtin-through-require' }, ({ pluginData: { builtin: path, names } }) => ({
      contents: `const builtin = require(${JSON.stringify(path)});\nexport default builtin;\n${names.length > 0 ? `export const { ${names.join(', ')} } = builtin;\n` : ''}`,
      loader: 'js',
    }));
  },
};

/**
 * The names `importer` imports from `specifier` (`import { a, b as c } from 'node:x'`); every
 * export when it also imports the namespace (`import * as x`), which esbuild then resolves.
 */
function importedNames(importer, specifier) {
  const source = readFileSync(importer, 'utf8');
  const quoted = `['"]${specifier.replace(/[/.]/g, '\\$&')}['"]`;
  if (new RegExp(`import\\s*\\*\\s*as\\s+\\w+\\s*from\\s*${quoted}`).test(source)) return Object.keys(deadmanRequire(specifier)).filter((name) => /^[A-Za-z_$][\\w$]*$/.test(name));
  const names = new Set();
  // `import type { … }` is gone before esbuild resolves anything; `{ type X }` is skipped below.
  for (const match of source.matchAll(new RegExp(`import\\s+(?:\\w+\\s*,\\s*)?\\{([^}]*)\\}\\s*from\\s*${quoted}`, 'g'))) {
    for (const item of match[1].split(',')) {
      const name = item.trim().split(/\s+as\s+/)[0];
      if (name && !name.startsWith('type ')) names.add(name);
    }
  }
  return [...names];
}

// Chunk names carry a content hash: without this, chunks of earlier builds would pile up.
rmSync(`${root}/dist/bundle`, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { main: 'lib/main.ts' },
  outdir: 'dist/bundle',
  // .mjs, not .js: Node takes an .mjs file for a module without looking for the package.json
  // that says so, a lookup every chunk a start loads would pay (~4 M instructions of a
  // `run -- true`'s 280 M, callgrind; issue 27.1).
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  minify: true,
  // Error and class names appear in messages and checks; keep them readable.
  keepNames: true,
  // A raw V8 addon, rebuilt per Node (bin/rebuild-addon.js): loaded from node_modules at run time.
  external: ['sd-notify'],
  // CommonJS dependencies (the TOML parser) call require() for Node built-ins.
  banner: { js: "import { createRequire as deadmanRequire } from 'node:module'; const require = deadmanRequire(import.meta.url);" },
  plugins: [englishOnlyZod, builtinsThroughRequire],
  logLevel: 'warning',
  metafile: true,
});
// A warning here is a bundle that breaks at run time (an import() esbuild cannot follow, a
// require of a missing file): fail the build instead.
if (result.warnings.length > 0) {
  process.stderr.write(`bin/bundle.js: ${result.warnings.length} esbuild warning(s) above; the bundle would not work as dist/lib does\n`);
  process.exit(1);
}
// Which sources went into which chunk: test/bin/bundle.test.ts checks the run path's chunks with it.
writeFileSync(`${root}/dist/bundle.meta.json`, JSON.stringify(result.metafile));
