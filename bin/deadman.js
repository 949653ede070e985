#!/usr/bin/env node
// Entry point only: checks the runtime, then hands over to the compiled CLI in dist/.
import module from 'node:module';

// Not `import … from 'node:fs'`: an ESM import of it loads fs/promises and readline too
// (bin/bundle.js says why); require() loads only fs.
const require = module.createRequire(import.meta.url);
const { statSync } = require('node:fs');

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  const { suggestNode } = await import('./find-node.js');
  process.stderr.write(
    `deadman: needs Node.js >= 22.13 for node:sqlite, this is ${process.version} at ${process.execPath}; ${suggestNode()}\n`,
  );
  // EX_CONFIG: the unit lists it in RestartPreventExitStatus=, so a wrong Node is not a crash loop.
  process.exit(78);
}

// node:sqlite still reports itself as experimental on some supported releases; that notice is
// not for deadman's users. Every other warning is printed as Node would.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name === 'ExperimentalWarning' && /SQLite/i.test(warning.message)) return;
  process.stderr.write(`${warning.name}: ${warning.message}\n`);
});

// Node keeps the compiled code of the bundle's chunks here, so a start skips compiling them. By
// default that is os.tmpdir(), which a unit's PrivateTmp= empties at every start; systemd's
// CacheDirectory= (units/deadman@.service) gives a place that lasts. NODE_COMPILE_CACHE, when
// set, still decides.
const cacheDirectory = process.env.NODE_COMPILE_CACHE ? undefined : process.env.CACHE_DIRECTORY?.split(':')[0];
module.enableCompileCache?.(cacheDirectory ? `${cacheDirectory}/compile-cache` : undefined);

// The bundle (bin/bundle.js, part of `npm run build`) starts in a fraction of the time the ~100
// modules of dist/lib/ take. It is used only while it is newer than dist/lib/main.js: a plain
// `tsc` after it (tsc rewrites every file) means dist/lib/ holds newer code than the bundle.
function modifiedMs(relative) {
  try {
    return statSync(new URL(relative, import.meta.url)).mtimeMs;
  } catch {
    return null;
  }
}
const bundled = modifiedMs('../dist/bundle/main.mjs');
const compiled = modifiedMs('../dist/lib/main.js');
const fresh = bundled !== null && (compiled === null || bundled >= compiled);
// `run`, the start systemd repeats, from the same chunks as classic scripts (bin/run-scripts.js)
// with a code cache of all the run compiles, where Node's keeps only what compiles eagerly.
const scripts = new URL('../dist/bundle/scripts/', import.meta.url);
const { main } =
  fresh && process.argv[2] === 'run' && modifiedMs('../dist/bundle/scripts/run.js') >= bundled
    ? { main: (await import('./run-scripts.js')).runScriptsMain(require, scripts, module.getCompileCacheDir?.()) }
    : fresh
      ? await import('../dist/bundle/main.mjs')
      : await import('../dist/lib/main.js');
await main(process.argv.slice(2));
