import { fileURLToPath } from 'node:url';

/**
 * A file of the deadman package by its path from the package root (`bin/deadman.js`). Found
 * from this module's own location, which is dist/lib/io/files/ after tsc but dist/bundle/ once
 * bundled (bin/bundle.js): both sit under the package's dist/, so the root is what precedes it.
 */
export function packageFile(fromRoot: string): string {
  const here = fileURLToPath(import.meta.url);
  const dist = here.lastIndexOf('/dist/');
  if (dist === -1)
    throw new Error(`deadman runs from ${here}, outside a dist/ directory: rebuild it with \`npm run build\``);
  return `${here.slice(0, dist)}/${fromRoot}`;
}
