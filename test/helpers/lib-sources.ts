import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every .ts file under a directory, recursively: the sources the structure tests read. */
export function typescriptSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? typescriptSources(path) : path.endsWith('.ts') ? [path] : [];
  });
}
