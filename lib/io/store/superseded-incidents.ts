import { REFUSAL_KINDS } from '../../core/signals/registry.ts';
import { moveIncident, owningRun } from './run-ends.ts';
import type { Store } from './store.ts';

// Apart from run-ends.ts, which every reader loads to settle lost runs: only a run that records
// its clean end needs the refusal kinds, and with them the signal registry and every detector.

/**
 * A run of the name that completed cleanly settles what earlier runs of the name left ESCALATED:
 * each SUPERSEDED, with a transition naming the run (inside the caller's transaction). A refusal
 * (a refused marker: its row's `refusal`) is not cleared by a success: someone wrote the marker,
 * so a person acknowledges it (`deadman ack`). Returns their ids.
 */
export function supersedeEscalated(store: Store, runId: number, at: number): number[] {
  const escalated = store.all<{ id: number; state: string }>(
    `SELECT i.id, i.state FROM incidents i WHERE i.state = 'ESCALATED' AND i.kind NOT IN (${REFUSAL_KINDS.map(() => '?').join(', ')})
        AND ${owningRun(store)} IN (SELECT e.id FROM runs e WHERE e.name = (SELECT name FROM runs WHERE id = ?) AND e.id < ?) ORDER BY i.id`,
    ...REFUSAL_KINDS,
    runId,
    runId,
  );
  return escalated
    .filter((incident) =>
      moveIncident(store, incident, 'superseded', at, `superseded: run #${runId} of the same name completed (exit 0)`, {
        run: runId,
      }),
    )
    .map((incident) => incident.id);
}
