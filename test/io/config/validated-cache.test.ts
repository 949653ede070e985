import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../../lib/io/config/config-file.ts';
import { repoRoot, tempDir } from '../../helpers/cli.ts';

/**
 * `deadman run`'s cache of validated configs: a config validated once is taken from the cache
 * while file, flags and build are unchanged, and anything else is validated afresh with the
 * schema's own errors. A hit leaves the entry's file as it was (a miss writes a new one in its
 * place). An entry can only repeat the file: one edited, planted or copied from another file is
 * refused with one line, and a file of another uid is never served from the cache.
 */

interface Entry {
  mac?: string;
  payload?: string;
  config?: { inactivity: number };
}

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
  const entryPath = () => join(cacheDir, entries()[0]!);
  /** The entry's file identity: a hit keeps it, a miss replaces the file. */
  const entryInode = () => statSync(entryPath()).ino;
  /** Rewrites the one cached entry's inactivity, keeping its MAC (or, in an old-style entry, its key). */
  const editEntry = (inactivity: number) => {
    const entry = JSON.parse(readFileSync(entryPath(), 'utf8')) as Entry;
    if (entry.payload === undefined) entry.config!.inactivity = inactivity;
    else entry.payload = entry.payload.replace(/"inactivity":\d+/, `"inactivity":${inactivity}`);
    writeFileSync(entryPath(), JSON.stringify(entry));
  };
  const notes: string[] = [];
  const load = (flags: Record<string, unknown> = {}, path = file) =>
    loadConfig({ explicitPath: path, flags, cacheBase: base, onNote: (line) => notes.push(line) });
  return { base, file, cacheDir, entries, entryPath, entryInode, editEntry, notes, load };
}

test('a config validated once is taken from the cache on the next start', async (t) => {
  const { entries, entryInode, notes, load } = setUp(t);
  assert.equal((await load()).config.inactivity, 600_000);
  assert.equal(entries().length, 1, 'the first load kept its result');
  const kept = entryInode();
  assert.equal((await load()).config.inactivity, 600_000);
  assert.equal(entryInode(), kept, 'the second load used the entry');
  assert.deepEqual(notes, []);
});

test('an edited entry is refused with one line and the file read again', async (t) => {
  const { file, entryInode, editEntry, notes, load } = setUp(t);
  await load();
  editEntry(123_456);
  const edited = entryInode();
  assert.equal((await load()).config.inactivity, 600_000, 'an edit would choose what the unit runs');
  assert.equal(notes.length, 1, notes.join('\n'));
  assert.match(
    notes[0]!,
    new RegExp(
      `^config cache entry .*\\.json was not written by deadman or was edited since .*: not used; ${file} validated again$`,
    ),
  );
  assert.notEqual(entryInode(), edited, "the file's own result replaced it");
  assert.equal((await load()).config.inactivity, 600_000);
  assert.equal(notes.length, 1, 'the replacement is used quietly');
});

test('an entry planted from another config file, or with a made-up MAC, is refused', async (t) => {
  const { base, cacheDir, entries, entryPath, notes, load } = setUp(t);
  await load();
  const victim = entryPath();
  // The planter's own file, validated and signed by deadman: right MAC, wrong file.
  const own = join(base, 'own.toml');
  writeFileSync(own, 'inactivity = "1s"\nauto_recover = true\n');
  await load({}, own);
  const planted = entries()
    .map((name) => join(cacheDir, name))
    .find((path) => path !== victim)!;
  copyFileSync(planted, victim);
  const loaded = await load();
  assert.equal(loaded.config.inactivity, 600_000);
  assert.equal(loaded.config.auto_recover, false);
  assert.equal(notes.length, 1, notes.join('\n'));
  const forged = JSON.parse(readFileSync(victim, 'utf8')) as Entry;
  forged.payload = forged.payload!.replace(/"inactivity":\d+/, '"inactivity":1000');
  forged.mac = 'f'.repeat(64);
  writeFileSync(victim, JSON.stringify(forged));
  assert.equal((await load()).config.inactivity, 600_000);
  assert.equal(notes.length, 2);
});

test(
  "a config file of another uid is never served from the cache, even by an entry signed with the cache's key",
  { skip: process.geteuid?.() !== 0 && 'needs root to chown' },
  async (t) => {
    const { file, cacheDir, entries, notes, load } = setUp(t);
    const fresh = await loadConfig({ explicitPath: file, onNote: () => {} });
    // uid 65534 owns the file, and (playing the cache directory's owner, who holds its key) signs
    // an entry for exactly this file, owner, text and build that says something else.
    chownSync(file, 65534, 65534);
    await load();
    assert.deepEqual(entries(), [], 'nothing is written for a file of another uid');
    mkdirSync(cacheDir, { mode: 0o700 });
    const key = randomBytes(32);
    writeFileSync(join(cacheDir, '.cache-key'), key, { mode: 0o600 });
    const cacheModule = fileURLToPath(new URL('../../../lib/io/config/validated-cache.js', import.meta.url));
    const { size, mtimeMs } = statSync(cacheModule);
    const build = `${cacheModule}:${size}:${mtimeMs}`;
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
    const payload = JSON.stringify({
      config: { ...fresh.config, inactivity: 123_456, auto_recover: true },
      empty: false,
      chosen: ['inactivity'],
    });
    const forge = (uid: number) => {
      chownSync(file, uid, uid);
      const mac = createHmac('sha256', key)
        .update([build, file, uid, sha256(readFileSync(file, 'utf8')), '{}', payload].join('\0'))
        .digest('hex');
      writeFileSync(
        join(cacheDir, `${sha256(`${file}\0{}`).slice(0, 32)}.${sha256(build).slice(0, 16)}.json`),
        JSON.stringify({ mac, payload }),
        { mode: 0o600 },
      );
    };
    forge(0);
    assert.equal(
      (await load()).config.inactivity,
      123_456,
      'the forgery is well made: deadman takes it for a file of its own uid',
    );
    forge(65534);
    const loaded = await load();
    assert.equal(loaded.config.inactivity, 600_000, 'the file, not the entry');
    assert.equal(loaded.config.auto_recover, false);
    assert.deepEqual(notes, [], "another uid's file is parsed quietly: that is how the unit is meant to be");
  },
);

test('an edited file or other flags are validated afresh', async (t) => {
  const { file, entries, entryInode, load } = setUp(t);
  await load();
  const first = entryInode();
  writeFileSync(file, 'inactivity = "20min"\n');
  assert.equal((await load()).config.inactivity, 1_200_000, 'the file changed');
  assert.equal(entries().length, 1, 'the entry was replaced, not joined by another');
  assert.notEqual(entryInode(), first);
  assert.equal((await load({ hung_timeout: 60_000 })).config.inactivity, 1_200_000, 'other flags');
  assert.equal(entries().length, 2, 'other flags, another entry');
});

test('another build of deadman validates afresh, and each of the last few builds keeps its entry', async (t) => {
  const { cacheDir, entries, load } = setUp(t);
  // Every build rewrites the module that keys the cache (in the bundle its name changes too).
  const cacheModule = fileURLToPath(new URL('../../../lib/io/config/validated-cache.js', import.meta.url));
  const { atime, mtime } = statSync(cacheModule);
  // Build 0 too is set through a Date, which drops the sub-millisecond part the file had.
  const asBuild = (n: number) => utimesSync(cacheModule, atime, new Date(mtime.getTime() + n * 1_000));
  t.after(() => asBuild(0));
  const inodes = () => new Map(entries().map((name) => [name, statSync(join(cacheDir, name)).ino]));
  asBuild(0);
  await load();
  const build0 = inodes();
  asBuild(1);
  assert.equal((await load()).config.inactivity, 600_000);
  assert.equal(entries().length, 2, 'two builds side by side do not evict each other');
  asBuild(0);
  await load();
  for (const [name, ino] of build0)
    assert.equal(inodes().get(name), ino, 'the first build still has its entry and uses it');
  for (let build = 2; build <= 5; build++) {
    asBuild(build);
    await load();
  }
  assert.equal(entries().length, 3, 'only the newest builds are kept');
});

test("an invalid config gives the schema's error with or without the cache, and is never cached", async (t) => {
  const { file, entries, load } = setUp(t, 'inactivity = "soon"\n');
  const uncached = await loadConfig({ explicitPath: file }).catch((error: Error) => error.message);
  const cached = await load().catch((error: Error) => error.message);
  assert.match(String(uncached), /inactivity/);
  assert.equal(cached, uncached);
  assert.equal(await load().catch((error: Error) => error.message), uncached, 'again, the same');
  assert.deepEqual(entries(), []);
});

test('a cache directory others can write into is not trusted', async (t) => {
  const { cacheDir, entryInode, load } = setUp(t);
  await load();
  const kept = entryInode();
  chmodSync(cacheDir, 0o777);
  assert.equal((await load()).config.inactivity, 600_000);
  assert.equal(entryInode(), kept, 'neither read nor written');
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
  assert.deepEqual(again.chosen, fresh.chosen);
});

test('an empty file still gets its note when it comes from the cache', async (t) => {
  const { base, file } = setUp(t, '# nothing yet\n');
  mkdirSync(join(base, 'config-cache'), { mode: 0o700 });
  const notes: string[] = [];
  for (let start = 0; start < 2; start++)
    await loadConfig({ explicitPath: file, cacheBase: base, onNote: (line) => notes.push(line) });
  assert.equal(
    readdirSync(join(base, 'config-cache')).filter((name) => name.endsWith('.json')).length,
    1,
    'the second start was a hit',
  );
  assert.equal(notes.length, 2);
  assert.match(notes[1]!, /has no settings/);
});
