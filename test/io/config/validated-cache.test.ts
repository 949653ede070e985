import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../../lib/io/config/config-file.ts';
import { repoRoot, tempDir } from '../../helpers/cli.ts';

/**
 * `deadman run`'s cache of validated configs: a config validated once is taken from the cache
 * while file, flags and build are unchanged, and anything else is validated afresh with the
 * schema's own errors. A hit is proven by editing the cached entry: only a load that used the
 * entry can return the edited value.
 */

function setUp(t: { after(fn: () => void): void }, toml = 'inactivity = "10min"\n') {
  const base = tempDir(t);
  const file = join(base, 'job.toml');
  writeFileSync(file, toml);
  const cacheDir = join(base, 'config-cache');
  const entries = () => {
    try {
      return readdirSync(cacheDir).filter((name) => name.endsWith('.json'));
    } catch {
      return [];
    }
  };
  /** Rewrites the one cached entry's inactivity, keeping its key. */
  const editEntry = (inactivity: number) => {
    const path = join(cacheDir, entries()[0]!);
    const entry = JSON.parse(readFileSync(path, 'utf8')) as { config: { inactivity: number } };
    entry.config.inactivity = inactivity;
    writeFileSync(path, JSON.stringify(entry));
  };
  const load = (flags: Record<string, unknown> = {}) => loadConfig({ explicitPath: file, flags, cacheBase: base, onNote: () => {} });
  return { base, file, cacheDir, entries, editEntry, load };
}

test('a config validated once is taken from the cache on the next start', async (t) => {
  const { entries, editEntry, load } = setUp(t);
  assert.equal((await load()).config.inactivity, 600_000);
  assert.equal(entries().length, 1, 'the first load kept its result');
  editEntry(123_456);
  assert.equal((await load()).config.inactivity, 123_456, 'the second load used the entry');
});

test('an edited file or other flags are validated afresh', async (t) => {
  const { file, entries, editEntry, load } = setUp(t);
  await load();
  editEntry(123_456);
  writeFileSync(file, 'inactivity = "20min"\n');
  assert.equal((await load()).config.inactivity, 1_200_000, 'the file changed');
  assert.equal(entries().length, 1, 'the entry was replaced, not joined by another');
  editEntry(123_456);
  assert.equal((await load({ hung_timeout: 60_000 })).config.inactivity, 1_200_000, 'other flags');
});

test('another build of deadman validates afresh, and each of the last few builds keeps its entry', async (t) => {
  const { entries, editEntry, load } = setUp(t);
  // Every build rewrites the module that keys the cache (in the bundle its name changes too).
  const cacheModule = fileURLToPath(new URL('../../../lib/io/config/validated-cache.js', import.meta.url));
  const { atime, mtime } = statSync(cacheModule);
  // Build 0 too is set through a Date, which drops the sub-millisecond part the file had.
  const asBuild = (n: number) => utimesSync(cacheModule, atime, new Date(mtime.getTime() + n * 1_000));
  t.after(() => asBuild(0));
  asBuild(0);
  await load();
  editEntry(123_456);
  asBuild(1);
  assert.equal((await load()).config.inactivity, 600_000);
  assert.equal(entries().length, 2, 'two builds side by side do not evict each other');
  asBuild(0);
  assert.equal((await load()).config.inactivity, 123_456, 'the first build still has its entry');
  for (let build = 2; build <= 5; build++) {
    asBuild(build);
    await load();
  }
  assert.equal(entries().length, 3, 'only the newest builds are kept');
});

test('an invalid config gives the schema\'s error with or without the cache, and is never cached', async (t) => {
  const { file, entries, load } = setUp(t, 'inactivity = "soon"\n');
  const uncached = await loadConfig({ explicitPath: file }).catch((error: Error) => error.message);
  const cached = await load().catch((error: Error) => error.message);
  assert.match(String(uncached), /inactivity/);
  assert.equal(cached, uncached);
  assert.equal(await load().catch((error: Error) => error.message), uncached, 'again, the same');
  assert.deepEqual(entries(), []);
});

test('a cache directory others can write into is not trusted', async (t) => {
  const { cacheDir, editEntry, load } = setUp(t);
  await load();
  editEntry(123_456);
  chmodSync(cacheDir, 0o777);
  assert.equal((await load()).config.inactivity, 600_000, 'a planted entry would choose what a unit runs');
});

test('no cache is made where the base directory does not exist', async (t) => {
  const { base, file } = setUp(t);
  const missing = join(base, 'not-made');
  await loadConfig({ explicitPath: file, cacheBase: missing, onNote: () => {} });
  assert.throws(() => readdirSync(missing), /ENOENT/);
});

test('the example config survives the cache unchanged', async (t) => {
  const { base, entries } = setUp(t);
  const example = join(repoRoot, 'deadman.toml.example');
  const fresh = await loadConfig({ explicitPath: example, onNote: () => {} });
  await loadConfig({ explicitPath: example, cacheBase: base, onNote: () => {} });
  assert.equal(entries().length, 1, 'the example config is cached');
  const again = await loadConfig({ explicitPath: example, cacheBase: base, onNote: () => {} });
  assert.deepEqual(again.config, fresh.config);
});

test('an empty file still gets its note when it comes from the cache', async (t) => {
  const { base, file } = setUp(t, '# nothing yet\n');
  mkdirSync(join(base, 'config-cache'), { mode: 0o700 });
  const notes: string[] = [];
  for (let start = 0; start < 2; start++) await loadConfig({ explicitPath: file, cacheBase: base, onNote: (line) => notes.push(line) });
  assert.equal(readdirSync(join(base, 'config-cache')).length, 1, 'the second start was a hit');
  assert.equal(notes.length, 2);
  assert.match(notes[1]!, /has no settings/);
});
