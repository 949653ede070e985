import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot, runProgram, tempDir, waitFor } from '../helpers/cli.ts';
import { builtAfterTsc } from '../helpers/bundle-built.ts';

/**
 * What `deadman status` and `deadman metrics` load beside a live run with its revive marker
 * (issue 36.1): neither node:crypto (a marker's MAC is checked in plain JavaScript) nor Node's
 * stream stack (they print with printSync), nor the signal registry and its detectors while no
 * incident is open. Each costs a reader's start a tenth or more of Node's own.
 */

const probeMeta = join(repoRoot, 'dist', 'bundle-probe.meta.json');
const built = builtAfterTsc('dist/bundle-probe.meta.json', 'dist/bundle/main.mjs');

const HOOK = `
  const { registerHooks } = await import('node:module');
  const loaded = [];
  registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
  process.on('exit', () => { const builtins = process.moduleLoadList;
    process.getBuiltinModule('node:fs').writeSync(2, 'LOADED ' + JSON.stringify(loaded) + '\\nBUILTINS ' + JSON.stringify(builtins) + '\\n'); });`;

/** The lib/ sources in the bundle chunks one reader loaded, and Node's modules it loaded. */
async function loadedByReader(
  dir: string,
  env: NodeJS.ProcessEnv,
  args: string[],
): Promise<{ stdout: string; sources: string[]; builtins: string[] }> {
  const reader = await runProgram(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(HOOK)}`, join(repoRoot, 'bin', 'deadman.js'), ...args],
    { env, cwd: dir },
  );
  assert.equal(reader.code, 0, reader.stderr);
  const outputs = (JSON.parse(readFileSync(probeMeta, 'utf8')) as { outputs: Record<string, { inputs: object }> })
    .outputs;
  const chunks = (JSON.parse(/^LOADED (.*)$/m.exec(reader.stderr)![1]!) as string[])
    .filter((url) => url.startsWith('file:'))
    .map((url) => relative(repoRoot, new URL(url).pathname));
  assert.ok(chunks.includes('dist/bundle/probe/lean-readers.mjs'), `the probes' bundle ran: ${chunks.join(', ')}`);
  return {
    stdout: reader.stdout,
    sources: chunks.flatMap((chunk) => Object.keys(outputs[chunk]?.inputs ?? {})),
    builtins: JSON.parse(/^BUILTINS (.*)$/m.exec(reader.stderr)![1]!) as string[],
  };
}

test(
  'bundled `deadman status` and `metrics` of a live run with a marker load no crypto, no stream, no signal registry',
  { skip: built ? false : 'no fresh bundle: `npm run build` makes one' },
  async (t) => {
    const dir = tempDir(t);
    const env: NodeJS.ProcessEnv = { ...process.env, STATE_DIRECTORY: join(dir, 'state') };
    for (const key of ['NOTIFY_SOCKET', 'WATCHDOG_USEC', 'DEADMAN_CONFIG', 'CACHE_DIRECTORY', 'SERVICE_RESULT'])
      delete env[key];
    const database = join(dir, 'deadman.db');
    const run = spawn(
      process.execPath,
      [join(repoRoot, 'bin', 'deadman.js'), 'run', '--name', 'live', '--database', database, '--', 'sleep', '60'],
      { env, cwd: dir, stdio: 'ignore' },
    );
    t.after(() => run.kill('SIGKILL'));
    await waitFor(() => existsSync(join(`${database}.markers`, 'live.json')), 20_000, "the run's revive marker");
    await waitFor(() => existsSync(join(dir, 'state', 'health', 'live.json')), 20_000, "the run's health file");

    const status = await loadedByReader(dir, env, ['status', '--database', database]);
    assert.match(status.stdout, /^live\s+running\s/m);
    const metrics = await loadedByReader(dir, env, ['metrics', '--database', database]);
    assert.match(metrics.stdout, /^deadman_run_running\{name="live"\} 1$/m);
    for (const [reader, loaded] of Object.entries({ status, metrics })) {
      assert.deepEqual(
        loaded.builtins.filter((name) => /^NativeModule (crypto|stream|v8)$/.test(name)),
        [],
        `${reader}: Node modules`,
      );
      assert.deepEqual(
        loaded.sources.filter((source) => /lib\/core\/(signals\/registry|detect\/)/.test(source)),
        [],
        `${reader}: bundled sources`,
      );
    }
  },
);
