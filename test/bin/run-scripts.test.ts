import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { repoRoot, tempDir } from '../helpers/cli.ts';
import { builtAfterTsc } from '../helpers/bundle-built.ts';

/**
 * `deadman run` from dist/bundle/scripts/ (bin/run-scripts.js) with a code cache of its own in
 * Node's compile cache directory: made once, then read; a damaged, foreign or planted one is
 * never run, and a start without a usable cache directory still starts.
 */

const scriptsBuilt = builtAfterTsc('dist/bundle/scripts/run.js');
const skip = scriptsBuilt ? false : 'no fresh bundle: `npm run build` makes one';

/** `deadman run -- true` with Node's compile cache in `cache` (from the package in `root`); its exit status and stderr. */
function start(dir: string, cache: string, root = repoRoot): { status: number | null; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, STATE_DIRECTORY: join(dir, 'state'), NODE_COMPILE_CACHE: cache };
  for (const key of ['NOTIFY_SOCKET', 'WATCHDOG_USEC', 'DEADMAN_CONFIG', 'CACHE_DIRECTORY']) delete env[key];
  const run = spawnSync(
    process.execPath,
    [join(root, 'bin', 'deadman.js'), 'run', '--database', join(dir, 'deadman.db'), '--', 'true'],
    {
      encoding: 'utf8',
      env,
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return { status: run.status, stderr: run.stderr };
}

/** deadman's cache directory under Node's (which adds a directory per Node version and user). */
function ownDirectory(cache: string): string {
  const [versioned] = readdirSync(cache);
  return join(cache, versioned!, 'deadman-run');
}

const runScript = join(repoRoot, 'dist', 'bundle', 'scripts', 'run.js');

/** The path of run.js's code cache: named by the script's path. */
function runCache(cache: string): string {
  return join(ownDirectory(cache), createHash('sha1').update(runScript).digest('hex').slice(0, 16));
}

/** What a cache's digest covers besides the data: the script's path, the id the build wrote at its head, its size and modification time. */
function digestKey(): string {
  const { size, mtimeMs } = statSync(runScript);
  const id = /^\/\*(\w+)[ \w]*\*\//.exec(readFileSync(runScript, 'latin1'))![1]!;
  return `${runScript}:${id}:${size}:${mtimeMs}`;
}

/** A file of the cache's format: its digest (over `key` and the data), then V8's data. */
function cacheFile(key: string, data: Buffer): Buffer {
  return Buffer.concat([createHash('sha1').update(key).update(data).digest(), data]);
}

/** Whether `file` is a cache under `key` with its digest holding (compared as a boolean: a diff of two caches takes minutes). */
function intact(key: string, file: Buffer): boolean {
  return file.length > 20 && cacheFile(key, file.subarray(20)).equals(file);
}

/** V8's data with bytes changed past its header (V8 checks no checksum of the rest). */
function damaged(data: Buffer): Buffer {
  const copy = Buffer.from(data);
  for (let at = 256; at < copy.length; at += 509) copy[at] = copy[at]! ^ 0x5a;
  return copy;
}

test('the first start writes the code cache of run.js, the next reads it and writes nothing', { skip }, (t) => {
  const dir = tempDir(t);
  const cache = join(dir, 'cache');
  assert.equal(start(dir, cache).status, 0);
  const path = runCache(cache);
  const written = statSync(path);
  assert.equal(written.mode & 0o777, 0o600);
  assert.equal(statSync(ownDirectory(cache)).mode & 0o777, 0o700);
  const second = start(dir, cache);
  assert.equal(second.status, 0, second.stderr);
  // A cache V8 refused (made under other flags than the next start's) would be written again.
  const again = statSync(path);
  assert.deepEqual([again.ino, again.mtimeMs], [written.ino, written.mtimeMs], 'the second start rewrote the cache');
});

test('a damaged or foreign code cache is ignored and replaced, never run', { skip }, (t) => {
  const dir = tempDir(t);
  const cache = join(dir, 'cache');
  assert.equal(start(dir, cache).status, 0);
  const path = runCache(cache);
  const name = path.slice(path.lastIndexOf('/') + 1);
  const good = readFileSync(path);
  assert.ok(intact(digestKey(), good));
  const data = good.subarray(20);
  const others = readdirSync(ownDirectory(cache)).filter((other) => other !== name);
  const cases: Array<[string, Buffer]> = [
    ['V8 data damaged past its header, the digest as it was', Buffer.concat([good.subarray(0, 20), damaged(data)])],
    ['truncated', good.subarray(0, good.length >> 1)],
    ['empty', Buffer.alloc(0)],
    ['garbage', Buffer.alloc(4096, 7)],
    [
      "another script's cache, its own digest and all",
      cacheFile(`/elsewhere/run.js:0123456789abcdef:${data.length}:0`, data),
    ],
    ...others.map((name): [string, Buffer] => [`the cache of ${name}`, readFileSync(join(ownDirectory(cache), name))]),
  ];
  for (const [what, contents] of cases) {
    writeFileSync(path, contents);
    const run = start(dir, cache);
    assert.equal(run.status, 0, `${what}: ${run.stderr}`);
    assert.ok(intact(digestKey(), readFileSync(path)), `${what}: the cache is made again`);
  }
});

test('a cache directory others can write to is not used: its code could be anyone’s', { skip }, (t) => {
  const dir = tempDir(t);
  const cache = join(dir, 'cache');
  assert.equal(start(dir, cache).status, 0);
  const path = runCache(cache);
  // Planted by another user: a digest that holds over damaged data.
  const planted = cacheFile(digestKey(), damaged(readFileSync(path).subarray(20)));
  writeFileSync(path, planted);
  chmodSync(ownDirectory(cache), 0o777);
  const run = start(dir, cache);
  assert.equal(run.status, 0, run.stderr);
  assert.ok(readFileSync(path).equals(planted), 'neither run nor replaced');
});

test('without a cache directory Node can use, a start still starts', { skip }, (t) => {
  const dir = tempDir(t);
  // A path under a regular file: no directory can be made there, by root either.
  writeFileSync(join(dir, 'file'), '');
  const run = start(dir, join(dir, 'file', 'cache'));
  assert.equal(run.status, 0, run.stderr);
  mkdirSync(join(dir, 'cache'));
  // deadman's directory taken by a file.
  assert.equal(start(dir, join(dir, 'cache')).status, 0);
  rmSync(ownDirectory(join(dir, 'cache')), { recursive: true });
  writeFileSync(ownDirectory(join(dir, 'cache')), 'not a directory');
  const again = start(dir, join(dir, 'cache'));
  assert.equal(again.status, 0, again.stderr);
});

test(
  'a script with characters beyond ASCII says so at its head, or the loader would read it byte by byte',
  { skip },
  () => {
    const scripts = join(repoRoot, 'dist', 'bundle', 'scripts');
    const unmarked = readdirSync(scripts).filter((name) => {
      const bytes = readFileSync(join(scripts, name));
      return bytes.some((byte) => byte > 0x7f) && !/^\/\*\w+ utf8\*\//.test(bytes.toString('latin1', 0, 40));
    });
    assert.deepEqual(unmarked, []);
  },
);

/** A copy of the package in `dir` (its bin/ and bundle), whose scripts can be rewritten. */
function copyOfPackage(dir: string): string {
  const root = join(dir, 'package');
  for (const part of ['bin', 'dist/bundle', 'package.json'])
    cpSync(join(repoRoot, part), join(root, part), { recursive: true });
  symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'));
  return root;
}

test('two copies of deadman sharing a cache directory keep a cache each', { skip }, (t) => {
  const dir = tempDir(t);
  const cache = join(dir, 'cache');
  const root = copyOfPackage(dir);
  assert.equal(start(dir, cache).status, 0);
  const written = statSync(runCache(cache));
  assert.equal(start(dir, cache, root).status, 0);
  assert.equal(start(dir, cache).status, 0);
  const again = statSync(runCache(cache));
  assert.deepEqual([again.ino, again.mtimeMs], [written.ino, written.mtimeMs], 'the other copy took its turn');
});

test('a script rewritten to the same length is compiled again: V8 would take the old cache for it', { skip }, (t) => {
  const dir = tempDir(t);
  const root = copyOfPackage(dir);
  const cache = join(dir, 'cache');
  const first = start(dir, cache, root);
  assert.match(first.stderr, / no watchdog /);
  const script = join(root, 'dist', 'bundle', 'scripts', 'run.js');
  const source = readFileSync(script, 'latin1');
  assert.ok(source.includes('`no watchdog ('), 'the words are in run.js');
  writeFileSync(script, source.replace('`no watchdog (', '`n0 watchdog ('), 'latin1');
  const second = start(dir, cache, root);
  assert.equal(second.status, 0, second.stderr);
  assert.match(second.stderr, / n0 watchdog /, 'the rewritten script ran, not the code cached from the old one');
});
