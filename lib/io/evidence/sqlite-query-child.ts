import { readFileSync } from 'node:fs';
import { querySqlite, type SqliteRequest } from './sqlite-query.ts';

/**
 * The child process sql.ts starts for one SQLite query: one JSON request on stdin, one JSON
 * answer on stdout. A file of its own, so it runs when started and never when imported.
 */
process.stdout.write(`${JSON.stringify(querySqlite(JSON.parse(readFileSync(0, 'utf8')) as SqliteRequest))}\n`);
