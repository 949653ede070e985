import { existsSync } from 'node:fs';
import type { Store } from '../io/store/store.ts';
import { loadContext, openStore, type CommonArgs } from './command-context.ts';

/**
 * Opens the database for the read-only commands (`incidents`, `report`) without creating
 * one: on a machine where nothing ran yet, "no incidents" is the answer, not a new file.
 */
export async function openExistingStore(args: CommonArgs): Promise<{ store: Store | null; database: string }> {
  const context = await loadContext(args);
  const database = context.paths.database;
  return { store: existsSync(database) ? openStore(context, { retain: false }) : null, database };
}
