import type { Logger } from '../log.ts';
import { systemClock } from '../clock.ts';
import type { Store } from './store.ts';
import { moveAside, storeError, type StoreError } from './store-errors.ts';

/**
 * The store as a run writes to it: best-effort. Supervision never waits on bookkeeping, so
 * when the database cannot be opened or written (read-only, full, locked, its directory
 * missing) this says once what it cannot record and why, drops writes, and tries again every
 * `retryMs`; the first write that works again says so. A damaged database is moved aside and a
 * fresh one started, with a line saying where the old one went.
 */

export interface StoreSink {
  /** Runs `work` against the store; null when it cannot be written now (already said). */
  write<T>(what: string, work: (store: Store) => T): T | null;
  close(): void;
}

export interface RecordingStoreDeps {
  path: string;
  open: () => Store;
  logger: Logger;
  wall: () => number;
  monotonic: () => number;
  retryMs?: number;
}

const RETRY_MS = 30_000;

export class RecordingStore implements StoreSink {
  private store: Store | null = null;
  private down: StoreError | null = null;
  private retryAt = Number.NEGATIVE_INFINITY;
  private readonly deps: RecordingStoreDeps;

  constructor(deps: RecordingStoreDeps) {
    this.deps = deps;
    this.open();
  }

  /** Whether writes reach the database now (for the start-up line). */
  get recording(): boolean {
    return this.store !== null && this.down === null;
  }

  write<T>(what: string, work: (store: Store) => T): T | null {
    if (this.down && this.deps.monotonic() < this.retryAt) return null;
    const store = this.store ?? this.open();
    if (!store) return null;
    try {
      const result = work(store);
      this.recovered();
      return result;
    } catch (error) {
      const problem = storeError(this.deps.path, error);
      if (problem.problem === 'corrupt') this.replaceDamaged(problem);
      else this.fail(problem, what);
      return null;
    }
  }

  close(): void {
    this.store?.close();
    this.store = null;
  }

  private open(): Store | null {
    try {
      this.store = this.deps.open();
      this.recovered();
      return this.store;
    } catch (error) {
      const problem = storeError(this.deps.path, error);
      if (problem.problem === 'corrupt') return this.replaceDamaged(problem);
      this.fail(problem, 'anything');
      return null;
    }
  }

  /** Damaged: keep the old file under another name and start a fresh database in its place. */
  private replaceDamaged(problem: StoreError): Store | null {
    this.close();
    try {
      const aside = moveAside(this.deps.path, this.deps.wall());
      this.deps.logger.log('warn', `${problem.message}; moved it aside to ${aside} and started a fresh one`);
      this.store = this.deps.open();
      this.recovered();
      return this.store;
    } catch (error) {
      this.fail(storeError(this.deps.path, error), 'anything');
      return null;
    }
  }

  private fail(problem: StoreError, what: string): void {
    this.retryAt = this.deps.monotonic() + (this.deps.retryMs ?? RETRY_MS);
    if (this.down) return;
    this.down = problem;
    this.deps.logger.log('warn', `not recording ${what}: ${problem.message}; the work goes on unrecorded, and recording resumes when the database can be written (tried again every ${Math.round((this.deps.retryMs ?? RETRY_MS) / 1000)}s)`);
  }

  private recovered(): void {
    if (!this.down) return;
    this.down = null;
    this.deps.logger.log('notice', `recording again in ${this.deps.path}`);
  }
}

/** A sink over a store some command already opened (`deadman revive`'s records of a spent budget). */
export function sinkOver(store: Store, logger: Logger): StoreSink {
  return new RecordingStore({ path: store.path, open: () => store, logger, wall: systemClock.wall, monotonic: systemClock.monotonic });
}
