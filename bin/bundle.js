#!/usr/bin/env node
// Build step after `tsc` (npm run build): bundles the CLI into dist/bundle/ so a start reads a
// handful of files instead of ~100 modules (start-up is most of what `deadman run -- true`
// costs). Each lazily imported module (yargs and the other commands, zod, the TOML parser, the
// agent adapters) stays a chunk of its own, loaded only by the start that needs it.
// bin/deadman.js uses the bundle only while it is newer than the tsc output it came from.
import { build } from 'esbuild';
import { writeRunScripts } from './bundle-scripts.js';
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
    onBuild.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, () => ({
      path: 'zod-locales',
      namespace: 'english-only-zod',
    }));
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
    onBuild.onResolve({ filter: /^[a-z0-9_/:]+$/ }, (args) =>
      args.kind === 'import-statement' && isBuiltin(args.path)
        ? // One module per importer: esbuild knows a module by its path alone.
          {
            path: `${args.path}?from=${args.importer}`,
            namespace: 'builtin-through-require',
            pluginData: { builtin: args.path, names: importedNames(args.importer, args.path) },
          }
        : undefined,
    );
    onBuild.onLoad(
      { filter: /.*/, namespace: 'builtin-through-require' },
      ({ pluginData: { builtin: path, names } }) => ({
        contents: LOADED_AT_FIRST_CALL.has(path)
          ? names
              .map((name) => `export const ${name} = (...args) => require(${JSON.stringify(path)}).${name}(...args);\n`)
              .join('')
          : `const builtin = require(${JSON.stringify(path)});\nexport default builtin;\n${names.length > 0 ? `export const { ${names.join(', ')} } = builtin;\n` : ''}`,
        loader: 'js',
      }),
    );
  },
};

/**
 * Built-ins whose every name deadman imports is a function, loaded at its first call: node:crypto
 * costs ~17 M instructions (+20 % of a Node start) and node:v8 30 of Node's modules, which a
 * probe (`deadman health` reads a file and /proc) never needs, though modules it loads sign or
 * hash on other paths, and main.ts sets a V8 flag for the other commands.
 */
const LOADED_AT_FIRST_CALL = new Set(['node:crypto', 'node:v8']);

/**
 * The names `importer` imports from `specifier` (`import { a, b as c } from 'node:x'`); every
 * export when it also imports the namespace (`import * as x`), which esbuild then resolves.
 */
function importedNames(importer, specifier) {
  const source = readFileSync(importer, 'utf8');
  const quoted = `['"]${specifier.replace(/[/.]/g, '\\$&')}['"]`;
  if (new RegExp(`import\\s*\\*\\s*as\\s+\\w+\\s*from\\s*${quoted}`).test(source))
    return Object.keys(deadmanRequire(specifier)).filter((name) => /^[A-Za-z_$][\\w$]*$/.test(name));
  const names = new Set();
  // `import type { … }` is gone before esbuild resolves anything; `{ type X }` is skipped below.
  for (const match of source.matchAll(
    new RegExp(`import\\s+(?:\\w+\\s*,\\s*)?\\{([^}]*)\\}\\s*from\\s*${quoted}`, 'g'),
  )) {
    for (const item of match[1].split(',')) {
      const name = item.trim().split(/\s+as\s+/)[0];
      if (name && !name.startsWith('type ')) names.add(name);
    }
  }
  return [...names];
}

/**
 * The probes (`health`, `status`, `metrics`: lib/commands/lean-readers.ts) are a bundle of
 * their own in dist/bundle/probe/, which main.mjs imports as a file. Within one build a module
 * shared by several chunks goes in whole with all that any chunk uses of it: zod's core as the
 * config schema uses it is ~160 KB, where the probes' zod/mini schemas need ~16 KB of it. Nothing
 * passes between the two bundles but the command line and the exit code.
 */
const probeApart = {
  name: 'probe-apart',
  setup(onBuild) {
    onBuild.onResolve({ filter: /\/lean-readers\.ts$/ }, (args) =>
      args.importer.endsWith('lib/main.ts') ? { path: './probe/lean-readers.mjs', external: true } : undefined,
    );
  },
};

/**
 * In the probes' bundle, zod's chained API (a config file to validate, an agent's output to read
 * for `status`) is main's own chunk, dist/bundle/zod.mjs, loaded only when one is needed: the
 * probes' zod/mini schemas keep a small core of their own.
 */
const zodFromMain = {
  name: 'zod-from-main',
  setup(onBuild) {
    onBuild.onResolve({ filter: /^zod$/ }, () => ({ path: '../zod.mjs', external: true }));
  },
};

// Chunk names carry a content hash: without this, chunks of earlier builds would pile up.
rmSync(`${root}/dist/bundle`, { recursive: true, force: true });
const options = {
  absWorkingDir: root,
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
  // CommonJS dependencies (the TOML parser) and the built-ins above call require(). Every chunk
  // gets this line: a createRequire() per chunk built a CommonJS module record and its
  // node_modules paths for each of the ~25 chunks a start loads (~10 M instructions of a
  // `run -- true`, callgrind), where a built-in needs none. Anything else still resolves from
  // the chunk's own place.
  banner: {
    js: "const require = (id) => process.getBuiltinModule(id) ?? process.getBuiltinModule('node:module').createRequire(import.meta.url)(id);",
  },
  logLevel: 'warning',
  metafile: true,
};
const result = await build({
  ...options,
  entryPoints: { main: 'lib/main.ts', zod: 'node_modules/zod/index.js' },
  outdir: 'dist/bundle',
  plugins: [englishOnlyZod, builtinsThroughRequire, probeApart],
});
const probe = await build({
  ...options,
  entryPoints: { 'lean-readers': 'lib/commands/lean-readers.ts' },
  outdir: 'dist/bundle/probe',
  plugins: [englishOnlyZod, builtinsThroughRequire, zodFromMain],
});
result.warnings.push(...probe.warnings);
// A warning here is a bundle that breaks at run time (an import() esbuild cannot follow, a
// require of a missing file): fail the build instead.
if (result.warnings.length > 0) {
  process.stderr.write(
    `bin/bundle.js: ${result.warnings.length} esbuild warning(s) above; the bundle would not work as dist/lib does\n`,
  );
  process.exit(1);
}
// Which sources went into which chunk: test/bin/bundle.test.ts checks the run path's chunks with it.
writeFileSync(`${root}/dist/bundle.meta.json`, JSON.stringify(result.metafile));
writeFileSync(`${root}/dist/bundle-probe.meta.json`, JSON.stringify(probe.metafile));
// The run path again as classic scripts (bin/bundle-scripts.js); which chunks each holds, for the tests.
writeFileSync(
  `${root}/dist/bundle-scripts.meta.json`,
  JSON.stringify(writeRunScripts(root, result.metafile, options.banner.js)),
);
