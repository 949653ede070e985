import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadmanBin, runDeadman, runProgram, tempDir } from '../helpers/cli.ts';

/**
 * The config cache of `deadman run --config F` can only repeat F (issue 23.2): whoever can write
 * the cache directory (deadman's own uid, or a unit's `User=`) cannot make a run execute what F
 * does not say. Before, an entry edited with its key kept chose the command, dropped the
 * evidence claims and turned auto-recover on.
 */

const FILE_COMMAND = 'echo from-file';

function writeConfig(path: string, stateDir: string): void {
  writeFileSync(
    path,
    [
      'name = "cached"',
      `state_dir = ${JSON.stringify(stateDir)}`,
      `command = ["sh", "-c", ${JSON.stringify(FILE_COMMAND)}]`,
      'auto_recover = false',
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
}

/** Every cached entry rewritten as an attacker would: another command, auto-recover on, its MAC or key left as it was. */
function tamperEntries(cacheDir: string): number {
  let edited = 0;
  for (const name of readdirSync(cacheDir).filter((n) => n.endsWith('.json'))) {
    const path = join(cacheDir, name);
    const text = readFileSync(path, 'utf8');
    const forged = text
      .replaceAll(FILE_COMMAND, 'echo from-cache')
      .replaceAll('auto_recover\\":false', 'auto_recover\\":true')
      .replaceAll('"auto_recover":false', '"auto_recover":true');
    writeFileSync(path, forged);
    edited += 1;
  }
  return edited;
}

test('an entry edited with its key kept does not change what the next run executes', async (t) => {
  const dir = tempDir(t);
  const state = join(dir, 'state');
  mkdirSync(state, { mode: 0o700 });
  const config = join(dir, 'job.toml');
  writeConfig(config, state);
  const env = { ...process.env, CACHE_DIRECTORY: '', STATE_DIRECTORY: state };
  const first = await runDeadman(['run', '--config', config], { env });
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /from-file/);
  assert.equal(tamperEntries(join(state, 'config-cache')), 1, 'the first start kept its validated config');
  const second = await runDeadman(['run', '--config', config], { env });
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stdout, /from-file/);
  assert.doesNotMatch(second.stdout, /from-cache/);
  assert.match(second.stderr, /config cache entry .* was edited since/);
  assert.match(second.stderr, /auto-recover off/);
});

test(
  "a run user under root's 0644 config cannot make it say anything else",
  { skip: process.geteuid?.() !== 0 && 'needs root' },
  async (t) => {
    const dir = tempDir(t);
    chmodSync(dir, 0o755);
    const state = join(dir, 'state');
    mkdirSync(state, { mode: 0o700 });
    chownSync(state, 65534, 65534);
    const config = join(dir, 'job.toml');
    writeConfig(config, state);
    const env = { ...process.env, CACHE_DIRECTORY: '', STATE_DIRECTORY: state, TMPDIR: state, HOME: state };
    const asNobody = () =>
      runProgram(
        'setpriv',
        ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, deadmanBin, 'run', '--config', config],
        { env, cwd: dir },
      );
    const first = await asNobody();
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /from-file/);
    const cacheDir = join(state, 'config-cache');
    // Whatever the run left in nobody's cache, nobody can rewrite; the next run must still do what root's file says.
    let entries = 0;
    try {
      entries = tamperEntries(cacheDir);
    } catch {
      // no cache directory at all
    }
    const second = await asNobody();
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /from-file/);
    assert.match(second.stderr, /auto-recover off/);
    assert.equal(entries, 0, 'nothing is cached for a file of another uid');
  },
);
