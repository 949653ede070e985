import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from './helpers/cli.ts';

/**
 * Dependencies point one way: cli → commands → supervise → core, and commands/supervise → io →
 * core. The core does no I/O: it imports nothing from node:* nor from the edges.
 */
const FORBIDDEN: Record<string, RegExp> = {
  core: /from '(node:|\.\.\/(io|commands|supervise|demo)\/|\.\.\/\.\.\/(io|commands|supervise|demo)\/)/,
  io: /from '\.\.\/(commands|supervise|demo)\//,
  supervise: /from '\.\.\/(commands|demo)\//,
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

test('lib/ layers import only downwards, and the core imports no node:* module', () => {
  const offences: string[] = [];
  let checked = 0;
  for (const [layer, forbidden] of Object.entries(FORBIDDEN)) {
    for (const file of sources(join(repoRoot, 'lib', layer))) {
      checked += 1;
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        if (/^\s*(import|export) /.test(line) && forbidden.test(line)) offences.push(`${relative(repoRoot, file)}: ${line.trim()}`);
      }
    }
  }
  assert.ok(checked > 40, `read ${checked} files`);
  assert.deepEqual(offences, []);
});
