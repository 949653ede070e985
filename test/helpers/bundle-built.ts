import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './cli.ts';

/**
 * Whether every one of these build outputs (paths in the repository) exists and is at least as
 * new as tsc's dist/lib/main.js: a plain `tsc` after `npm run build` leaves the bundle stale, and
 * bin/deadman.js then starts dist/lib, so a test of the bundle has nothing to look at.
 */
export function builtAfterTsc(...outputs: string[]): boolean {
  const compiled = statSync(join(repoRoot, 'dist', 'lib', 'main.js')).mtimeMs;
  return outputs.every(
    (output) => existsSync(join(repoRoot, output)) && statSync(join(repoRoot, output)).mtimeMs >= compiled,
  );
}
