import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { repoRoot, runProgram } from '../helpers/cli.ts';

/**
 * `deadman run` starts every time systemd restarts a unit: its module graph must not pull in
 * yargs, zod or the TOML parser unless there is something for them to do (see bench/ for the
 * timings). A hook records every package the run path resolves.
 */
test('the run path loads no yargs, zod or TOML parser until it needs them', async () => {
  const script = `
    const { registerHooks } = await import('node:module');
    const packages = new Set();
    registerHooks({ resolve(specifier, context, next) {
      if (!specifier.startsWith('.') && !specifier.startsWith('node:') && !specifier.startsWith('file:')) packages.add(specifier);
      return next(specifier, context);
    } });
    await import(${JSON.stringify(join(repoRoot, 'dist', 'lib', 'commands', 'run.js'))});
    console.log(JSON.stringify([...packages]));`;
  const result = await runProgram(process.execPath, ['--input-type=module', '-e', script]);
  assert.equal(result.code, 0, result.stderr);
  const packages = JSON.parse(result.stdout) as string[];
  for (const heavy of ['yargs', 'zod', '@iarna/toml'])
    assert.ok(!packages.some((p) => p.startsWith(heavy)), `${heavy} is loaded: ${packages.join(', ')}`);
});
