#!/usr/bin/env node
// Build step after `tsc` (npm run build): bundles the CLI into dist/bundle/ so a start reads a
// handful of files instead of ~100 modules (start-up is most of what `deadman run -- true`
// costs). Each lazily imported module (yargs and the other commands, zod, the TOML parser, the
// agent adapters) stays a chunk of its own, loaded only by the start that needs it.
// bin/deadman.js uses the bundle only while it is newer than the tsc output it came from.
import { build } from 'esbuild';
import { rmSync, writeFileSync } from 'node:fs';
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
 * use. Exports defined as getters are left out, so a module that imports one fails the build
 * (esbuild: no matching export) instead of loading it behind our back.
 */
const builtinsThroughRequire = {
  name: 'builtins-through-require',
  setup(onBuild) {
    onBuild.onResolve({ filter: /^[a-z_/:]+$/ }, (args) => (
      args.kind !== 'require-call' && isBuiltin(args.path) ? { path: args.path, namespace: 'builtin-through-require' } : undefined
    ));
    onBuild.onLoad({ filter: /.*/, namespace: 'builtin-through-require' }, (args) => {
      const builtin = deadmanRequire(args.path);
      const names = Object.keys(builtin).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default'
        && !Object.getOwnPropertyDescriptor(builtin, name)?.get);
      return { contents: `const builtin = require(${JSON.stringify(args.path)});\nexport default builtin;\nexport const { ${names.join(', ')} } = builtin;\n`, loader: 'js' };
    });
  },
};

// Chunk names carry a content hash: without this, chunks of earlier builds would pile up.
rmSync(`${root}/dist/bundle`, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { main: 'lib/main.ts' },
  outdir: 'dist/bundle',
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
