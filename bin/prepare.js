#!/usr/bin/env node
// npm's `prepare`: `npm run build`, unless dist/ is newer than everything it is built from.
// npm runs `prepare` after `npm ci`, and again at the first `npx deadman` in this checkout: npm
// 11 links the project into npx's cache to run its own bin, which runs `prepare` on the link.
// That second build made the README's first `npx deadman demo` take twice as long.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// bin/bundle.js writes it last: a build cut short leaves it missing or older than the sources.
const BUILT = join(root, 'dist', 'bundle.meta.json');
const SOURCES = [
  'lib',
  'test',
  'bench',
  'bin/bundle.js',
  'bin/bundle-scripts.js',
  'tsconfig.json',
  'package-lock.json',
];

function newestMtime(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

const built = statSync(BUILT, { throwIfNoEntry: false })?.mtimeMs ?? 0;
if (built > Math.max(...SOURCES.map((source) => newestMtime(join(root, source))))) {
  process.stderr.write('deadman prepare: dist/ is newer than its sources; not rebuilding (npm run build does)\n');
} else {
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  process.exitCode = build.status ?? 1;
}
