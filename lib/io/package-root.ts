import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the package is installed (from dist/lib/io/), so that --help names files that exist there. */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}
