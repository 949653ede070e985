// Loads `deadman run` from dist/bundle/scripts/ (bin/bundle-scripts.js) with V8 code caches of
// deadman's own: the one of run.js, made as the process exits, holds every function the run
// compiled, where Node's compile cache of the same chunks as ES modules holds only those V8
// compiles eagerly (docs/design.md, start-up).

/**
 * The V8 flags deadman sets once its code loaded (lib/io/heap/), at Node's defaults: put back
 * before run.js's cache is made. Were one of them on Node's command line, every start would
 * find the cache made under other flags and make it again: slower, never wrong.
 */
const DEFAULT_FLAGS = ['--semi-space-growth-factor=2', '--no-expose-gc'];

/** Digest before each cache: integrity of the file (V8 checks no checksum), not authenticity. */
const DIGEST = 'sha1';
const DIGEST_BYTES = 20;

/**
 * main() of the bundle, each chunk it imports taken from the scripts: the process uses this copy
 * of every module, never the ES module of the same chunk. `require` is the entry's own (one per
 * process: each builds a CommonJS module record); `cacheRoot` Node's compile cache directory.
 */
export function runScriptsMain(require, scriptsUrl, cacheRoot) {
  const { readFileSync, statSync } = require('node:fs');
  const { Script } = require('node:vm');
  const { createHash } = require('node:crypto');
  const cacheDirectory = ownDirectory(require, cacheRoot);
  const modules = new Map();
  const tables = new Map();

  const load = (file) => {
    const path = new URL(file, scriptsUrl).pathname;
    // Most files are ASCII (esbuild's charset), one byte a character with no UTF-8 decoding;
    // the build marks those that are not (bin/bundle-scripts.js).
    const bytes = readFileSync(path);
    let source = bytes.toString('latin1');
    const [, id, utf8] = /^\/\*(\w+)( utf8)?\*\//.exec(source) ?? [];
    if (utf8) source = bytes.toString('utf8');
    // One cache per script file, as Node keeps one per module: two copies of deadman (a checkout
    // and an install) never take turns rewriting one another's.
    const cachePath =
      cacheDirectory && id ? `${cacheDirectory}/${digestOf(createHash, path).toString('hex', 0, 8)}` : null;
    // V8 takes any cache made for a source of the same length: the digest also covers the file
    // as it is now, so one rewritten (a build, an edit) is compiled again.
    const key = cachePath ? `${path}:${id}:${bytes.length}:${statSync(path).mtimeMs}` : '';
    const cachedData = cachePath ? verifiedCache(readFileSync, createHash, cachePath, key) : undefined;
    const script = new Script(source, { filename: path, cachedData });
    const table = script.runInThisContext();
    for (const name of Object.keys(table)) tables.set(name, table);
    const stale = cachePath !== null && (cachedData === undefined || script.cachedDataRejected === true);
    return { script, stale, save: () => saveCodeCache(require, createHash, script, cachePath, key) };
  };

  const chunk = (name) => {
    const known = modules.get(name);
    if (known) return known.exports;
    // A chunk outside run.js: made after its first evaluation, under the V8 flags of that moment
    // (those it is loaded under the next time), with the code its top level compiled.
    const lazy = tables.has(name) ? null : load(`${name.replace(/\.mjs$/, '')}.js`);
    const chunkModule = { exports: {} };
    modules.set(name, chunkModule);
    const chunkUrl = new URL(`../${name}`, scriptsUrl).href;
    tables.get(name)[name](chunkModule.exports, (id) => importOf(chunkUrl, id), chunkModule, chunkUrl);
    if (lazy?.stale) lazy.save();
    return chunkModule.exports;
  };

  // A chunk's require(), for its imports too: what the bundle's banner (bin/bundle.js) resolves,
  // but another chunk of the bundle from the scripts.
  const importOf = (chunkUrl, id) =>
    /^\.\/[\w-]+\.mjs$/.test(id)
      ? chunk(id.slice(2))
      : (process.getBuiltinModule(id) ?? process.getBuiltinModule('node:module').createRequire(chunkUrl)(id));

  const run = load('run.js');
  // run.js's cache is made as the process ends, holding all the run compiled, with the flags set
  // since put back: it loaded before them, and loads before them at the next start.
  if (run.stale)
    process.once('exit', () => {
      const { setFlagsFromString } = require('node:v8');
      for (const flag of DEFAULT_FLAGS) setFlagsFromString(flag);
      run.save();
    });
  return chunk('main.mjs').main;
}

/**
 * deadman's directory in Node's compile cache directory (the unit's CacheDirectory=, else the
 * temporary directory), or null: none, or one another user could have written to, since a code
 * cache is code that runs.
 */
function ownDirectory(require, cacheRoot) {
  if (!cacheRoot || typeof process.getuid !== 'function') return null;
  const { lstatSync, mkdirSync } = require('node:fs');
  const path = `${cacheRoot}/deadman-run`;
  try {
    let stats = lstatSync(path, { throwIfNoEntry: false });
    if (!stats) {
      mkdirSync(path, { mode: 0o700 });
      stats = lstatSync(path);
    }
    return stats.isDirectory() && stats.uid === process.getuid() && (stats.mode & 0o022) === 0 ? path : null;
  } catch {
    // Not to be made (a read-only cache directory): a start without a cache.
    return null;
  }
}

/**
 * The code cache in `path` when its digest holds: V8 checks its version, flags and the source's
 * length but no checksum, and deserializing a damaged cache crashes Node. The digest covers the
 * script's path, id, size and modification time (`key`), so the cache of another script is refused too.
 */
function verifiedCache(readFileSync, createHash, path, key) {
  let file;
  try {
    file = readFileSync(path);
  } catch {
    return undefined;
  }
  if (file.length <= DIGEST_BYTES) return undefined;
  const data = file.subarray(DIGEST_BYTES);
  return digestOf(createHash, key, data).equals(file.subarray(0, DIGEST_BYTES)) ? data : undefined;
}

/** Written whole or not at all (a temporary file renamed), 0600; a cache that cannot be written is left to the next start. */
function saveCodeCache(require, createHash, script, path, key) {
  const { renameSync, rmSync, writeFileSync } = require('node:fs');
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    const data = script.createCachedData();
    writeFileSync(temporary, Buffer.concat([digestOf(createHash, key, data), data]), { mode: 0o600, flag: 'wx' });
    renameSync(temporary, path);
  } catch {
    rmSync(temporary, { force: true });
  }
}

function digestOf(createHash, text, data) {
  const hash = createHash(DIGEST).update(text);
  return (data ? hash.update(data) : hash).digest();
}
