import { accessSync, constants, statSync } from 'node:fs';
import { lostRunReason } from '../../core/status/run-presence.ts';
import type { ServiceStop } from '../../core/status/lost-run-end.ts';
import { isRunOwnerAlive } from '../process/run-owner.ts';
import { closeLostRun, openRuns, unsettledIncidents } from './run-ends.ts';
import { SCHEMA_VERSION } from './store-schema.ts';
import { Store } from './store.ts';

/**
 * What a reader (`status`, `metrics`, `health`, `approve`) does on finding runs whose deadman
 * died without recording an end: it tells them apart (their ids, and their unsettled incidents
 * as ABANDONED with the reason), and records that in the database when it may — the database
 * is at this deadman's schema and the caller owns the file (root never leaves files of its own
 * beside another user's database). Otherwise the answer is the same; only nothing is written.
 */
export interface LostRuns {
  /** Run ids with no recorded end whose deadman is gone. */
  runIds: ReadonlySet<number>;
  /** Incident id → why it is ABANDONED. */
  abandoned: ReadonlyMap<number, string>;
  written: boolean;
}

/** `stop`: systemd's word on its unit's main process, for ExecStopPost= (io/service-stop-env.ts); it speaks only for the run of that invocation. */
export function settleLostRuns(
  store: Store,
  at: number,
  stop: ServiceStop | null = null,
  ownerAlive: (run: { pid: number; pid_start_time?: number | null }) => boolean = isRunOwnerAlive,
): LostRuns {
  const lost = openRuns(store).filter((run) => !ownerAlive(run));
  const abandoned = new Map(
    lost.flatMap((run) =>
      unsettledIncidents(store, run.id).map((incident) => [incident.id, lostRunReason(run)] as const),
    ),
  );
  // Not written (locked, full, read-only): the next run of the name records it.
  const written =
    lost.length > 0 &&
    mayWrite(store) &&
    recordInto(store.path, (writer) => lost.forEach((run) => closeLostRun(writer, run, at, stop)));
  return { runIds: new Set(lost.map((run) => run.id)), abandoned, written };
}

/** Run name → the textfile its lost run recorded (null: none recorded, as by a deadman before migration 7). */
export function lostRunTextfiles(store: Store, runIds: ReadonlySet<number>): Map<string, string | null> {
  const rows = [...runIds].map((id) =>
    store.get<{ name: string; metrics_textfile?: string | null }>('SELECT * FROM runs WHERE id = ?', id)!,
  );
  return new Map(rows.map((row) => [row.name, row.metrics_textfile ?? null]));
}

/**
 * An incident's state as every reader reports it (`status`, `incidents`, `report`, `metrics`,
 * `approve`/`deny`, `ack`): ABANDONED when its run was found lost — recorded or not — else as recorded.
 */
export function incidentStateAsRead(incident: { id: number; state: string }, lost: LostRuns | undefined): string {
  return lost?.abandoned.has(incident.id) ? 'ABANDONED' : incident.state;
}

/** Whether this reader may record into the database: at this deadman's schema, and this user's file. */
export function mayWrite(store: Store): boolean {
  try {
    accessSync(store.path, constants.W_OK);
    const version = store.get<{ user_version: number }>('PRAGMA user_version')?.user_version;
    return version === SCHEMA_VERSION && statSync(store.path).uid === (process.geteuid?.() ?? -1);
  } catch {
    return false;
  }
}

/** Writes through a store of its own on the same file; false when it could not (locked, full, read-only). */
export function recordInto(path: string, write: (store: Store) => void): boolean {
  let writer: Store | null = null;
  try {
    writer = new Store(path, { busyTimeoutMs: 250 });
    write(writer);
    return true;
  } catch {
    return false;
  } finally {
    writer?.close();
  }
}
