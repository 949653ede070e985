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

/** Each incident of a run's database as `KIND → ACTION… → STATE`, in the order they opened: what a replay's `signal:` lines are compared with. */
export function incidentSequences(database: string): string[] {
  const incidents = query<{ id: number; kind: string; state: string }>(
    database,
    'SELECT id, kind, state FROM incidents ORDER BY id',
  );
  return incidents.map((i) =>
    [
      i.kind,
      ...query<{ kind: string }>(database, 'SELECT kind FROM actions WHERE incident_id = ? ORDER BY id', i.id).map(
        (a) => a.kind,
      ),
      i.state,
    ].join(' → '),
  );
}
