// Build step after bin/bundle.js's esbuild pass: the same chunks once more as classic scripts in
// dist/bundle/scripts/, which `deadman run` loads through bin/run-scripts.js. Node's compile
// cache of an ES module is made the moment it compiles, so it holds only the functions V8
// compiles eagerly; every other function the run calls (~55 M instructions of a `run -- true`,
// callgrind) is compiled again at every start. A classic script's code cache can be made after
// the run, and then holds them all (docs/design.md, start-up).
import { transformSync } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

/** The arguments each chunk's function takes: CommonJS's three, and its place as import.meta.url had it. */
export const CHUNK_PARAMETERS = 'exports, require, module, __deadmanChunkUrl';

/**
 * Writes dist/bundle/scripts/: run.js holds main.mjs, the run command's chunk and every chunk
 * they import statically (what every `run` start loads), one file per other chunk (loaded when
 * the run first imports it). Each file is `/*ID*\/({"name.mjs": function (…) {…}, …})`, ID a hash of
 * the rest, which names its code cache (followed by ` utf8` when the file is not all ASCII). Returns which chunks each file holds (for the tests).
 */
export function writeRunScripts(root, metafile, banner) {
  const outputs = Object.keys(metafile.outputs).filter((path) => /^dist\/bundle\/[^/]+\.mjs$/.test(path));
  const runChunk = outputs.find((path) => metafile.outputs[path].entryPoint === 'lib/commands/run.ts');
  if (!runChunk) throw new Error('bin/bundle-scripts.js: no chunk of lib/commands/run.ts in the bundle');
  const always = new Set();
  const visit = (path) => {
    if (always.has(path)) return;
    always.add(path);
    for (const { path: imported, kind, external } of metafile.outputs[path].imports)
      if (kind === 'import-statement' && !external) visit(imported);
  };
  visit('dist/bundle/main.mjs');
  visit(runChunk);
  const files = { 'run.js': [...always] };
  for (const path of outputs) if (!always.has(path)) files[`${baseName(path).replace(/\.mjs$/, '')}.js`] = [path];
  mkdirSync(`${root}/dist/bundle/scripts`, { recursive: true });
  const contents = {};
  for (const [file, chunks] of Object.entries(files)) {
    const table = `({${chunks.map((path) => `${JSON.stringify(baseName(path))}: ${asFunction(root, path, banner)}`).join(',\n')}})\n`;
    // esbuild leaves some characters beyond ASCII in regular expressions: such a file says so.
    const encoding = /^[\x00-\x7f]*$/.test(table) ? '' : ' utf8';
    const id = createHash('sha256').update(`${encoding}${table}`).digest('hex').slice(0, 16);
    writeFileSync(`${root}/dist/bundle/scripts/${file}`, `/*${id}${encoding}*/${table}`);
    contents[file] = chunks.map(baseName);
  }
  return contents;
}

const baseName = (path) => path.slice(path.lastIndexOf('/') + 1);

/**
 * One ES module chunk as a function body: its imports become require() calls of the loader, an
 * import() a require() once the promise settles, import.meta.url the chunk's own URL, so every
 * chunk behaves as it does loaded as a module. esbuild's exports object gets the marker an
 * importer's interop reads, in place of a second object of getters in front of it.
 */
function asFunction(root, path, banner) {
  const module = readFileSync(`${root}/${path}`, 'utf8');
  // The loader's require() is the banner's, for chunks too (bin/run-scripts.js).
  if (!module.startsWith(`${banner}\n`))
    throw new Error(`bin/bundle-scripts.js: ${path} does not start with the banner`);
  const { code } = transformSync(module.slice(banner.length + 1), {
    format: 'cjs',
    loader: 'js',
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': '__deadmanChunkUrl' },
    minifyWhitespace: true,
    minifySyntax: true,
    charset: 'ascii',
  });
  const exported = /module\.exports=__toCommonJS\((\w+)\);/;
  const body = exported.test(code)
    ? code.replace(exported, 'module.exports=__defProp($1,"__esModule",{value:!0});')
    : code;
  // Parenthesized: compiled with the script, not at its first call, so a cache made as it loads holds it.
  return `(function (${CHUNK_PARAMETERS}) {${body}\n})`;
}
