import type { Row } from '../store/store.ts';

/**
 * A refused marker in the records: a `revives` row whose outcome says why. Nothing from the
 * refused file is stored (its command line is not deadman's): only the run name and the reason.
 */
export function refusedMarkerRow(name: string, problem: string, now: number): Row {
  return {
    name,
    session_id: '-',
    at: now,
    attempt: 0,
    budget: 0,
    source: 'marker',
    argv: [],
    outcome: `refused: ${problem}`,
  };
}
