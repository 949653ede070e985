import { buildReport, type IncidentReport } from '../../core/incident/report.ts';
import { readTrace, shippedTraceNames } from '../../io/session/trace-file.ts';
import { latestIncidentId, loadIncidentRows } from '../../io/store/incident-records.ts';
import { Store } from '../../io/store/store.ts';
import { replayTrace } from '../../supervise/trace/replay.ts';
import { commandClock } from './command-clock.ts';

/**
 * `deadman report <scenario>`: the report of a shipped scenario (the traces `deadman replay`
 * lists), made by replaying it into an in-memory database — the same records a live run
 * writes, so the same report, without touching the state directory. Null when the name is no
 * shipped scenario.
 */
export async function scenarioReport(name: string): Promise<IncidentReport | null> {
  if (!shippedTraceNames().includes(name)) return null;
  const store = new Store(':memory:');
  try {
    await replayTrace(
      readTrace(name).trace,
      commandClock.sleep,
      { write: (_what, work) => work(store), close: () => {}, generation: 0 },
      name,
    );
    const id = latestIncidentId(store);
    const rows = id === null ? null : loadIncidentRows(store, id);
    return rows && buildReport(rows);
  } finally {
    store.close();
  }
}
