import { existsSync } from 'node:fs';
import { Store } from '../io/store/store.ts';
import { storeError, StoreError } from '../io/store/store-errors.ts';
import { loadContext, type CommonArgs, type Context } from './command-context.ts';

/**
 * Opens the database read-only for the commands that only read (`status`, `incidents`,
 * `report`): nothing is created, migrated or chmodded, so they work on a read-only file
 * system, and on a machine where nothing ran yet (no file, or an empty one) "no incidents" is the
 * answer, not a new file.
 * A database that cannot be read is one line (exit 74), never a stack trace.
 */
export async function openExistingStore(args: CommonArgs, loaded?: Context): Promise<{ store: Store | null; database: string; context: Context }> {
  const context = loaded ?? await loadContext(args);
  const database = context.paths.database;
  try {
    return { store: existsSync(database) ? schemaOrNothing(new Store(database, { readOnly: true })) : null, database, context };
  } catch (error) {
    throw unreadable(database, error);
  }
}

/**
 * A database with no tables yet — 0 bytes, left by a run killed before its first commit — holds
 * nothing recorded: every reader says so, as for a missing file, and the next run initialises it.
 */
function schemaOrNothing(store: Store): Store | null {
  if (store.hasTable('runs')) return store;
  store.close();
  return null;
}

/** Runs the reads of one command; a database that fails part-way (damaged pages) is one line, exit 74. */
export function readRows<T>(database: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw unreadable(database, error);
  }
}

function unreadable(database: string, error: unknown): StoreError {
  const problem = storeError(database, error);
  if (problem.problem !== 'corrupt') return problem;
  return new StoreError(`${problem.message}; the next deadman run moves it aside and starts a fresh one, or move it aside yourself`, 'corrupt');
}
