import { DatabaseSync } from 'node:sqlite';
import { chmodSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensurePrivateDir } from '../paths.ts';
import { stateDirError, storeError } from './store-errors.ts';

/** How the store opens its file: for writing (directory made private, a new file 0600) or only to read. */

export function openForWriting(path: string, busyTimeoutMs = 10_000): DatabaseSync {
  if (path === ':memory:') return new DatabaseSync(path);
  try {
    ensurePrivateDir(dirname(path));
  } catch (error) {
    throw stateDirError(dirname(path), error);
  }
  const created = !existsSync(path);
  try {
    const db = new DatabaseSync(path, { timeout: busyTimeoutMs });
    // Only a file we created gets our mode: the owner of an existing one chose its own.
    if (created) chmodSync(path, 0o600);
    return db;
  } catch (error) {
    throw storeError(path, error);
  }
}

/**
 * Reading never writes: not the file, its mode, nor its directory. A WAL database on a
 * read-only file system has no shared-memory file to open, so SQLite is told the file cannot
 * change under it (`immutable=1`), which needs none.
 */
export function openReadOnly(path: string, busyTimeoutMs = 10_000): DatabaseSync {
  try {
    const db = new DatabaseSync(path, { readOnly: true, timeout: busyTimeoutMs });
    db.prepare('PRAGMA user_version').get();
    return db;
  } catch (first) {
    try {
      const url = pathToFileURL(path);
      url.searchParams.set('immutable', '1');
      return new DatabaseSync(url, { readOnly: true });
    } catch {
      throw storeError(path, first);
    }
  }
}
