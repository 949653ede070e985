/**
 * The script of a floor figure: the least any Node wrapper that records to SQLite does before
 * its own work — child_process and node:sqlite loaded, a WAL database open with one table —
 * followed by `work`, which may call `insertRow()`, `spawn` and `db`. What deadman costs beyond
 * a floor is its own code and its other records. Run with `node --input-type=module -e`.
 */
export function sqliteFloorScript(database: string, work: string): string {
  return `import { spawn } from 'node:child_process';
    import { DatabaseSync } from 'node:sqlite';
    const db = new DatabaseSync(${JSON.stringify(database)});
    db.exec('PRAGMA journal_mode = WAL; CREATE TABLE IF NOT EXISTS rows (at INTEGER)');
    const insertRow = () => db.prepare('INSERT INTO rows VALUES (?)').run(Date.now());
    ${work}`;
}
