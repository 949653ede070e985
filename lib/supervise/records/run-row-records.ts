import { runErrorCode } from '../../core/incident/error-codes.ts';
import type { Store } from '../../io/store/store.ts';
import type { StoreSink } from '../../io/store/recording-store.ts';
import type { ProcessInfo } from '../../core/process/process-info.ts';
import { abandonIncidents, closeLostRun, openRuns, type OpenRunRow } from '../../io/store/run-ends.ts';
import { supersedeEscalated } from '../../io/store/superseded-incidents.ts';
import { completedCleanly } from '../../core/status/run-status-rows.ts';
import { detached } from '../../core/adapters/lines.ts';
import {
  EventBatch,
  EVENT_BATCH_DEFAULTS,
  RAW_EVENT_CHARS,
  recordedRaw,
  type EventBatchOptions,
} from './event-batch.ts';
import { CUT_CONTEXT } from '../../core/redact/line-stream.ts';
import type { RunRow } from '../record-types.ts';

/**
 * The run's own rows: its `runs` row, its events, observations, revives and evidence results,
 * written through a best-effort StoreSink (records.ts adds the incidents). The run's row is
 * written again into a fresh database (the sink's generation) before anything that needs it.
 */
export class RunRowRecords {
  protected runId: number | null = null;
  protected generation = 0; // the sink's database that holds runId
  protected run: { row: RunRow; startedAt: number; changes: Record<string, string> } | null = null;
  protected readonly events: EventBatch;

  constructor(
    private readonly sink: StoreSink | null,
    protected readonly wall: () => number,
    batching: EventBatchOptions = EVENT_BATCH_DEFAULTS,
  ) {
    this.events = new EventBatch(
      (rows, runChanges) =>
        this.withRun('events', (s, id) => {
          if (runChanges) s.update('runs', id, runChanges);
          if (rows.length > 0)
            s.recordEvents(
              id,
              rows.map((row) => recordedRaw(s, row)),
            );
        }),
      batching,
    );
  }

  get id(): number | null {
    return this.runId;
  }

  protected safely<T>(what: string, write: (store: Store) => T): T | null {
    return this.sink?.write(what, write) ?? null;
  }

  /** What the run's edges look up in earlier runs' records: best-effort like every write, null when the store cannot answer. */
  read<T>(what: string, query: (store: Store) => T): T | null {
    return this.safely(what, query);
  }

  /** Writes needing the run's row: written now if it could not be at the start (store unavailable then), or if the database is a fresh one. */
  protected withRun(what: string, write: (store: Store, runId: number) => void): void {
    const run = this.run;
    if (run)
      this.safely(this.runId === null ? 'the run' : what, (s) => {
        if (this.runId === null || this.generation !== this.sink!.generation) {
          this.generation = this.sink!.generation;
          const { row, startedAt, changes } = run;
          this.runId = s.insert('runs', {
            name: row.name,
            argv: row.argv,
            cwd: row.cwd,
            unit: row.unit,
            invocation_id: row.invocationId,
            pid: row.pid,
            pid_start_time: row.pidStartTime,
            token: row.token,
            adapter: row.adapter,
            revive_of: row.reviveOf,
            started_at: startedAt,
            metrics_textfile: row.metricsTextfile ?? null,
            ...changes,
          });
        }
        write(s, this.runId);
      });
  }

  /**
   * Rows of earlier runs of this name that never got an end: their deadman died without
   * recording one (watchdog SIGABRT after a withheld ping, SIGKILL, power loss). Closed now,
   * keeping the outcome recorded at the stall when there was one; their incidents ABANDONED.
   */
  closeOrphans(name: string, ownerAlive: (run: OpenRunRow) => boolean): void {
    this.safely('earlier runs', (s) => {
      for (const row of openRuns(s, name)) if (!ownerAlive(row)) closeLostRun(s, row, this.wall());
    });
  }

  update(changes: {
    session_id?: string;
    adapter?: string;
    outcome?: string;
    reason?: string;
    error_code?: string | null;
  }): void {
    if (this.run) Object.assign(this.run.changes, changes);
    this.withRun('the run', (s, id) => s.update('runs', id, changes));
  }

  /** As update(), written with the next batch of events: for what the output path learns (a session id, per turn). */
  updateSoon(changes: { session_id?: string; adapter?: string }): void {
    if (this.run) Object.assign(this.run.changes, changes);
    this.events.changeRun(changes);
  }

  /** `errorCode`, when the outcome alone does not tell it (a stall's kind, a throttle): error-codes.ts. */
  finishRun(result: {
    exitCode: number | null;
    signal: string | null;
    outcome: string;
    reason: string;
    errorCode?: string | null | undefined;
  }): void {
    this.events.flush();
    this.withRun('the run', (s, id) =>
      s.transaction(() => {
        s.update('runs', id, {
          ended_at: this.wall(),
          exit_code: result.exitCode,
          signal: result.signal,
          outcome: result.outcome,
          reason: result.reason,
          error_code: result.errorCode !== undefined ? result.errorCode : runErrorCode({ outcome: result.outcome }),
        });
        abandonIncidents(s, id, this.wall(), `the run ended (${result.outcome}) before this incident was settled`);
        if (completedCleanly({ outcome: result.outcome, exit_code: result.exitCode }))
          supersedeEscalated(s, id, this.wall());
      }),
    );
  }

  /**
   * Queued, not written: the caller is the output path, which must never wait on the store.
   * `raw` is copied (detached) only if it is queued, and only its start (recordedRaw).
   */
  event(stream: string, kind: string, raw: string, truncated: boolean, data: object | null): void {
    this.events.add(() => ({
      at: this.wall(),
      stream,
      kind,
      raw: detached(raw.slice(0, RAW_EVENT_CHARS + CUT_CONTEXT)),
      truncated: truncated || raw.length > RAW_EVENT_CHARS,
      data: data ?? undefined,
    }));
  }

  /** Output that could not be delivered: written at once, after the events queued before it. */
  undelivered(stream: string, problem: string): void {
    this.events.flush();
    this.withRun('events', (s, id) =>
      s.recordEvents(id, [{ at: this.wall(), stream, kind: 'undelivered', raw: problem, truncated: false }]),
    );
  }

  observation(processes: ProcessInfo[]): void {
    this.withRun('observations', (s, id) => s.recordObservation(id, this.wall(), processes));
  }

  /** A session resumed: inline by `deadman run`, or detached by `deadman revive` (with what the launch came to). */
  revive(row: {
    name: string;
    sessionId: string;
    attempt: number;
    budget: number;
    argv: string[];
    source: string;
    outcome: string;
  }): void {
    this.safely('the revive', (s) =>
      s.insert('revives', {
        name: row.name,
        session_id: row.sessionId,
        at: this.wall(),
        attempt: row.attempt,
        budget: row.budget,
        source: row.source,
        argv: row.argv,
        outcome: row.outcome,
      }),
    );
  }

  evidence(claim: string, verdict: string, reason: string): void {
    this.safely('an evidence result', (s) =>
      s.insert('evidence_results', { run_id: this.runId, claim, at: this.wall(), verdict, reason }),
    );
  }
}
