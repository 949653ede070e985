import type { Row, Store } from '../../io/store/store.ts';

/**
 * The child's events on their way to the store. A line-per-insert store held a chatty agent to
 * 0.1–1 MB/s, because the passthrough waited for every commit; here events wait in a bounded
 * queue and go to SQLite in one transaction every `flushMs`. Beyond `maxQueued` events in one
 * interval, events are counted as dropped from the records — never from the output — and the
 * count goes in with the next batch. The store keeps only the newest few thousand events of a
 * run anyway, so a flood loses nothing a person could have read, and the cost of recording is
 * bounded per second whatever the child writes: 1,000 events a second by default, far more than
 * an agent says and far less than a flood, whose redaction and inserts would cost more than its
 * parse (bench/throughput.ts).
 */

/** How much of a line an event keeps. */
export const RAW_EVENT_CHARS = 4096;

/**
 * An event's line cut to RAW_EVENT_CHARS only once redacted: cut first, a secret across the cut
 * kept its head (the start of an env value, of a token) where no shape could see it whole.
 * The store redacts it again as it writes, which changes nothing.
 */
export function recordedRaw(store: Store, row: Row): Row {
  return typeof row.raw === 'string' && row.raw.length > RAW_EVENT_CHARS
    ? { ...row, raw: store.redacted(row.raw).slice(0, RAW_EVENT_CHARS) }
    : row;
}

export interface EventBatchOptions {
  flushMs: number;
  maxQueued: number;
  /** Runs `flush` once after `ms`; must not keep the process alive (the run flushes at its end). */
  schedule: (flush: () => void, ms: number) => void;
}

export const EVENT_BATCH_DEFAULTS: EventBatchOptions = {
  flushMs: 100,
  maxQueued: 100,
  schedule: (flush, ms) => setTimeout(flush, ms).unref(),
};

export class EventBatch {
  private queue: Row[] = [];
  /** Changes to the run's row that may wait for the batch: a session id, one per turn of a fleet of short jobs, cost an UPDATE each. */
  private runChanges: Row | null = null;
  private droppedSinceFlush = 0;
  private droppedTotal = 0;
  private scheduled = false;
  private readonly write: (rows: Row[], runChanges: Row | null) => void;
  private readonly options: EventBatchOptions;

  constructor(write: (rows: Row[], runChanges: Row | null) => void, options: EventBatchOptions = EVENT_BATCH_DEFAULTS) {
    this.write = write;
    this.options = options;
  }

  /** Events that did not fit in the queue, over the whole run. */
  get dropped(): number {
    return this.droppedTotal;
  }

  /** `row` is only called for an event that fits: a flood's dropped events cost a count, not a row. */
  add(row: () => Row): void {
    if (this.queue.length >= this.options.maxQueued) {
      this.droppedSinceFlush++;
      this.droppedTotal++;
    } else {
      this.queue.push(row());
    }
    this.flushSoon();
  }

  /** Written with the next batch, the newest value of each column winning. */
  changeRun(changes: Row): void {
    this.runChanges = { ...this.runChanges, ...changes };
    this.flushSoon();
  }

  private flushSoon(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.options.schedule(() => this.flush(), this.options.flushMs);
  }

  /** Writes everything queued now (the timer's work, and the run's last word before it ends). */
  flush(): void {
    this.scheduled = false;
    const rows = this.queue;
    this.queue = [];
    if (this.droppedSinceFlush > 0) {
      // Drops start only once the queue is full, so there is a last queued event to date this by.
      const at = rows.at(-1)!.at;
      rows.push({
        at,
        stream: 'deadman',
        kind: 'dropped',
        truncated: false,
        raw: `${this.droppedSinceFlush} events not recorded: more than ${this.options.maxQueued} in ${this.options.flushMs} ms (${this.droppedTotal} in this run); the output itself was passed through`,
        data: { dropped: this.droppedSinceFlush, total: this.droppedTotal },
      });
      this.droppedSinceFlush = 0;
    }
    const runChanges = this.runChanges;
    this.runChanges = null;
    if (rows.length > 0 || runChanges) this.write(rows, runChanges);
  }
}
