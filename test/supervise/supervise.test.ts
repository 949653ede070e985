import { readdirSync } from 'node:fs';
import { extname } from 'node:path';

/**
 * Every `*.cases.ts` file of this folder, in one process. They are pure units over fakes and
 * temporary SQLite files: no real time, no child process. Started one process per file, Node's
 * start-up and the shared imports were most of the folder's time (20 files: 39 s wall, 9 s of
 * CPU at load 16, issue 37). A test that changes the process itself (V8 flags, heap sampling)
 * stays a `*.test.ts` of its own. One case file runs alone with `node --test` on its dist path.
 */
const cases = `.cases${extname(import.meta.filename)}`;
const files = readdirSync(import.meta.dirname, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith(cases))
  .sort();
for (const file of files) await import(`./${file}`);
