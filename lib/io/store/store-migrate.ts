import type { DatabaseSync } from 'node:sqlite';
import { MIGRATIONS, SCHEMA_VERSION } from './store-schema.ts';
import { StoreError } from './store-errors.ts';

/**
 * The schema version of a database and the migrations that bring it to this deadman's: each
 * step in its own transaction, skipped when another writer took it first. A newer schema is
 * refused before anything is changed.
 */

function schemaVersion(db: DatabaseSync): number {
  return (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
}

export function checkSchemaVersion(db: DatabaseSync, path: string, version = schemaVersion(db)): void {
  if (version > SCHEMA_VERSION) {
    throw new StoreError(
      `${path}: database schema version ${version} is newer than this deadman understands (${SCHEMA_VERSION}); upgrade deadman or point --database elsewhere (the file was not changed)`,
      'unavailable',
    );
  }
}

export function migrateSchema(db: DatabaseSync, path: string): void {
  const version = schemaVersion(db);
  checkSchemaVersion(db, path, version);
  for (let next = version; next < SCHEMA_VERSION; next++) {
    db.exec('BEGIN IMMEDIATE');
    try {
      if (schemaVersion(db) === next) {
        db.exec(MIGRATIONS[next]!);
        db.exec(`PRAGMA user_version = ${next + 1}`);
      }
      db.exec('COMMIT');
    } catch (error) {
      rollbackQuietly(db);
      throw error;
    }
  }
}

/** After a failed COMMIT SQLite may have rolled back already (a full disk does): "cannot rollback" must not replace the error that says why. */
export function rollbackQuietly(db: DatabaseSync): void {
  try {
    db.exec('ROLLBACK');
  } catch {
    /* no transaction left: the caller throws the error that ended it */
  }
}
