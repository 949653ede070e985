import { Store } from '../../lib/io/store/store.ts';

/** Reads rows from a deadman database that a finished run left behind. */
export function query<T>(database: string, sql: string, ...params: Array<string | number>): T[] {
  const store = new Store(database);
  try {
    return store.all<T>(sql, ...params);
  } finally {
    store.close();
  }
}
