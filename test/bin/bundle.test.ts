import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot, runProgram, tempDir, waitFor } from '../helpers/cli.ts';
import { builtAfterTsc } from '../helpers/bundle-built.ts';

/**
 * bin/deadman.js starts the bundle of dist/bundle/ (bin/bundle.js, run by `npm run build`) while
 * it is newer than the tsc output, else dist/lib/. The choice is checked in a package of two
 * one-line stand-ins; the real bundle is checked for what a supervised start loads.
 */

function fakePackage(dir: string): { bundle: string; compiled: string } {
  mkdirSync(join(dir, 'bin'));
  copyFileSync(join(repoRoot, 'bin', 'deadman.js'), join(dir, 'bin', 'deadman.js'));
  const standIn = (relative: string, says: string) => {
    mkdirSync(join(dir, relative, '..'), { recursive: true });
    writeFileSync(join(dir, relative), `export async function main() { process.stdout.write('${says}'); }\n`);
    return join(dir, relative);
  };
  return { bundle: standIn('dist/bundle/main.mjs', 'bundle'), compiled: standIn('dist/lib/main.js', 'compiled') };
}

const startedFrom = (dir: string) =>
  spawnSync(process.execPath, [join(dir, 'bin', 'deadman.js')], { encoding: 'utf8' }).stdout;

test('the entry starts the bundle when it is newer than dist/lib, and dist/lib after a plain tsc', (t) => {
  const dir = tempDir(t);
  const { bundle, compiled } = fakePackage(dir);
  utimesSync(compiled, 1_000, 1_000);
  utimesSync(bundle, 2_000, 2_000);
  assert.equal(startedFrom(dir), 'bundle');
  utimesSync(compiled, 3_000, 3_000);
  assert.equal(startedFrom(dir), 'compiled', 'a tsc build after the bundle: the bundle is stale');
});

test('without a bundle (tsc only) the entry starts dist/lib', (t) => {
  const dir = tempDir(t);
  const { bundle } = fakePackage(dir);
  writeFileSync(bundle, 'throw new Error("not this one");\n');
  utimesSync(bundle, 1_000, 1_000);
  assert.equal(startedFrom(dir), 'compiled');
});

interface Metafile {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}

const metafile = join(repoRoot, 'dist', 'bundle.meta.json');
/** Which chunks each file of dist/bundle/scripts/ holds (bin/bundle-scripts.js). */
const scriptsMetafile = join(repoRoot, 'dist', 'bundle-scripts.meta.json');
const bundleMain = join(repoRoot, 'dist', 'bundle', 'main.mjs');
const built = builtAfterTsc('dist/bundle.meta.json', 'dist/bundle/main.mjs');

/**
 * The sources of every bundle chunk one `deadman run … -- true` loaded (state kept in `dir`) from
 * dist/bundle/scripts/ (bin/run-scripts.js), the Node modules it loaded, and those of Node's own modules it compiled without their code cache
 * (Node's internal test binding, under --expose-internals, counts them).
 */
function loadedByRun(
  dir: string,
  runArgs: string[],
): { sources: string[]; builtins: string[]; compiledFromSource: string[]; requireFunctions: number } {
  const hook = `
    const { registerHooks } = await import('node:module');
    const { internalBinding } = (await import('node:module')).createRequire(process.execPath)('internal/test/binding');
    const loaded = [];
    registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
    const fs = (await import('node:module')).createRequire(process.execPath)('node:fs');
    const readFileSync = fs.readFileSync;
    fs.readFileSync = function (path, ...rest) {
      if (typeof path === 'string' && path.includes('/dist/bundle/scripts/')) loaded.push('script:' + path);
      return readFileSync.call(this, path, ...rest);
    };
    const module = (await import('node:module')).default;
    const createRequire = module.createRequire;
    let requires = 0;
    module.createRequire = (...args) => (requires++, createRequire(...args));
    module.syncBuiltinESMExports();
    process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify(loaded) + '\\nBUILTINS ' + JSON.stringify(process.moduleLoadList)
      + '\\nFROM_SOURCE ' + JSON.stringify([...internalBinding('builtins').getCacheUsage().compiledWithoutCache]) + '\\nREQUIRES ' + requires + '\\n'));`;
  const env: NodeJS.ProcessEnv = { ...process.env, STATE_DIRECTORY: join(dir, 'state') };
  for (const key of ['NOTIFY_SOCKET', 'WATCHDOG_USEC', 'DEADMAN_CONFIG', 'CACHE_DIRECTORY']) delete env[key];
  const run = spawnSync(
    process.execPath,
    [
      '--expose-internals',
      '--import',
      `data:text/javascript,${encodeURIComponent(hook)}`,
      join(repoRoot, 'bin', 'deadman.js'),
      'run',
      '--database',
      join(dir, 'deadman.db'),
      ...runArgs,
      '--',
      'true',
    ],
    { encoding: 'utf8', env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  assert.equal(run.status, 0, run.stderr);
  const loaded = JSON.parse(/^LOADED (.*)$/m.exec(run.stderr)![1]!) as string[];
  const modules = loaded.filter((url) => url.startsWith('file:')).map((url) => new URL(url).pathname);
  assert.deepEqual(
    modules.filter((file) => /\/(dist\/lib|node_modules|dist\/bundle)\//.test(file)),
    [],
    'a run takes every chunk from the scripts: an ES module of one would be a second copy of its modules',
  );
  const scripts = JSON.parse(readFileSync(scriptsMetafile, 'utf8')) as Record<string, string[]>;
  const files = loaded
    .filter((url) => url.startsWith('script:'))
    .flatMap((url) => scripts[url.slice(url.lastIndexOf('/') + 1)] ?? [])
    .map((chunk) => join(repoRoot, 'dist', 'bundle', chunk));
  assert.ok(files.includes(bundleMain), `the bundle ran: ${files.join(', ')}`);
  const { outputs } = JSON.parse(readFileSync(metafile, 'utf8')) as Metafile;
  const sources = files.flatMap((file) => Object.keys(outputs[file.slice(repoRoot.length)]?.inputs ?? {}));
  assert.ok(sources.includes('lib/commands/run.ts'), `chunks mapped to their sources: ${sources.length}`);
  const listed = (label: string) => JSON.parse(new RegExp(`^${label} (.*)$`, 'm').exec(run.stderr)![1]!) as string[];
  return {
    sources,
    builtins: listed('BUILTINS'),
    compiledFromSource: listed('FROM_SOURCE'),
    requireFunctions: Number(/^REQUIRES (\d+)$/m.exec(run.stderr)![1]),
  };
}

// Matched anywhere in the path: a worktree whose node_modules is a symlink names them ../x/node_modules/….
const HEAVY = ['node_modules/yargs/', 'node_modules/zod/', 'node_modules/@iarna/toml/'];

test(
  'a bundled `deadman run` loads no yargs, zod or TOML parser, and no module of dist/lib',
  {
    skip: built ? false : 'no fresh bundle: `npm run build` makes one',
  },
  (t) => {
    const { sources } = loadedByRun(tempDir(t), []);
    for (const heavy of HEAVY)
      assert.deepEqual(
        sources.filter((source) => source.includes(heavy)),
        [],
        `${heavy} is in a chunk the run path loads`,
      );
  },
);

test(
  'a bundled `deadman run` builds no process.stdin stream: on /dev/null it loads fs streams, fs/promises and readline (~2 ms)',
  {
    skip: built ? false : 'no fresh bundle: `npm run build` makes one',
  },
  (t) => {
    const { builtins } = loadedByRun(tempDir(t), []);
    assert.deepEqual(
      builtins.filter((name) => /internal\/fs\/streams|readline/.test(name)),
      [],
    );
  },
);

test(
  "a bundled `deadman run` compiles none of Node's own modules from source: a V8 flag set before they load voids their code cache",
  {
    skip: built ? false : 'no fresh bundle: `npm run build` makes one',
  },
  (t) => {
    assert.deepEqual(loadedByRun(tempDir(t), []).compiledFromSource, []);
  },
);

test(
  'a bundled `deadman run` makes no require function per chunk: each built a CommonJS module and its search paths',
  {
    skip: built ? false : 'no fresh bundle: `npm run build` makes one',
  },
  (t) => {
    // bin/deadman.js makes the one.
    assert.equal(loadedByRun(tempDir(t), []).requireFunctions, 1);
  },
);

test(
  'with --config, only the first start of a config loads zod and the TOML parser',
  {
    skip: built ? false : 'no fresh bundle: `npm run build` makes one',
  },
  (t) => {
    const dir = tempDir(t);
    mkdirSync(join(dir, 'state'));
    writeFileSync(join(dir, 'job.toml'), 'inactivity = "10min"\n');
    const first = loadedByRun(dir, ['--config', 'job.toml']).sources;
    assert.ok(
      first.some((source) => source.includes('node_modules/zod/')),
      'the first start validates the config',
    );
    const again = loadedByRun(dir, ['--config', 'job.toml']).sources;
    for (const heavy of HEAVY)
      assert.deepEqual(
        again.filter((source) => source.includes(heavy)),
        [],
        `${heavy} is loaded again`,
      );
  },
);

test(
  'the bundled CLI answers --version from the package file',
  {
    skip: built ? false : 'no fresh bundle: `npm run build` makes one',
  },
  () => {
    const run = spawnSync(process.execPath, [join(repoRoot, 'bin', 'deadman.js'), '--version'], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(
      run.stdout.trim(),
      (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version,
    );
  },
);

test(
  'a bundled `deadman health` of a live run opens no database and builds no stream; a reader gone away ends it quietly',
  {
    skip: built ? false : 'no fresh bundle: `npm run build` makes one',
  },
  async (t) => {
    const dir = tempDir(t);
    const env: NodeJS.ProcessEnv = { ...process.env, STATE_DIRECTORY: join(dir, 'state') };
    for (const key of ['NOTIFY_SOCKET', 'WATCHDOG_USEC', 'DEADMAN_CONFIG', 'CACHE_DIRECTORY', 'SERVICE_RESULT'])
      delete env[key];
    const run = spawn(
      process.execPath,
      [
        join(repoRoot, 'bin', 'deadman.js'),
        'run',
        '--name',
        'lean',
        '--database',
        join(dir, 'deadman.db'),
        '--',
        'sleep',
        '60',
      ],
      { env, cwd: dir, stdio: 'ignore' },
    );
    t.after(() => run.kill('SIGKILL'));
    await waitFor(() => existsSync(join(dir, 'state', 'health', 'lean.json')), 20_000, "the run's health file");
    // The list is read before process.stderr is touched: that builds the stream.
    const hook =
      'process.on("exit", () => { const loaded = JSON.stringify(process.moduleLoadList); process.stderr.write("BUILTINS " + loaded + "\\n"); });';
    const probe = await runProgram(
      process.execPath,
      [
        '--import',
        `data:text/javascript,${encodeURIComponent(hook)}`,
        join(repoRoot, 'bin', 'deadman.js'),
        'health',
        '--name',
        'lean',
      ],
      { env, cwd: dir },
    );
    assert.equal(probe.code, 0, probe.stderr);
    assert.match(probe.stdout, /^lean: healthy/);
    const builtins = JSON.parse(/^BUILTINS (.*)$/m.exec(probe.stderr)![1]!) as string[];
    assert.deepEqual(
      builtins.filter((name) => /^NativeModule (sqlite|stream|net|v8)$/.test(name)),
      [],
    );
    // stdout closed before the answer is written: EPIPE is no error of the probe's.
    const gone = spawn(process.execPath, [join(repoRoot, 'bin', 'deadman.js'), 'health', '--name', 'lean', '--json'], {
      env,
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    gone.stdout.destroy();
    let said = '';
    gone.stderr.setEncoding('utf8').on('data', (text: string) => (said += text));
    assert.deepEqual(await new Promise((resolve) => gone.on('close', (code) => resolve([code, said]))), [0, '']);
  },
);

/**
 * In the bundle every module's import.meta.url is its chunk's, in dist/bundle/, not the file's
 * own place under dist/lib/: a path built from it breaks once bundled. Package files are found
 * through lib/io/files/package-files.ts; resolving a package (createRequire) works from anywhere.
 * The config cache reads its own module file to tell one build from another, which holds
 * wherever that file is.
 */
const IMPORT_META_ALLOWED = new Set([
  'lib/io/files/package-files.ts',
  'lib/io/service/sd-notify.ts',
  'lib/io/config/validated-cache.ts',
]);

function libSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? libSources(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

test('no lib/ module builds a path from its own import.meta.url (it moves when bundled)', () => {
  const offenders = libSources(join(repoRoot, 'lib'))
    .map((path) => relative(repoRoot, path))
    .filter(
      (path) =>
        !IMPORT_META_ALLOWED.has(path) &&
        /import\.meta\.(url|dirname|filename)/.test(readFileSync(join(repoRoot, path), 'utf8')),
    );
  assert.deepEqual(offenders, [], 'use packageFile() from lib/io/files/package-files.ts');
});
