import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from '../../core/ports/logger.ts';
import { reportFault } from '../log/log.ts';
import type { Clock } from '../../core/time/clock.ts';
import type { Store } from './store.ts';
import { moveAside, storeError, type StoreError } from './store-errors.ts';

/**
 * The store as a run writes to it: best-effort, and never on the output path's clock. The run
 * opens it with no busy wait (RECORDING_BUSY_TIMEOUT_MS): a lock another writer holds makes a
 * write fail at once instead of stalling the event loop that copies the work's output, and the
 * write is dropped and counted until the lock is free (tried again every LOCKED_RETRY_MS).
 * When the database cannot be opened or written for any other reason (read-only, full, its
 * directory missing) this says once what it cannot record and why, drops writes, and tries
 * again every `retryMs`; the first write that works again says so, with the count dropped. A
 * damaged database is moved aside and a fresh one started; a database deleted under the run
 * (its state directory removed) is noticed at the next poll (`notice`) or write, said once,
 * and a fresh one started in a re-created directory. Each fresh database is a new `generation`:
 * the records re-create the run's row in it.
 */

export interface StoreSink {
  /** Runs `work` against the store; null when it cannot be written now (already said). */
  write<T>(what: string, work: (store: Store) => T): T | null;
  /** Counts the databases this sink started afresh (damaged, deleted): rows of an earlier one are not in it. */
  readonly generation: number;
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

/** The run's busy timeout: none. Waiting for a lock would hold the work's output for as long. */
export const RECORDING_BUSY_TIMEOUT_MS = 0;
const RETRY_MS = 30_000;
const LOCKED_RETRY_MS = 1_000;

export class RecordingStore implements StoreSink {
  private store: Store | null = null;
  private down: StoreError | null = null;
  private retryAt = Number.NEGATIVE_INFINITY;
  private dropped = 0;
  private identity: { dev: number; ino: number } | null = null;
  private fresh = 0;
  private readonly deps: RecordingStoreDeps;

  constructor(deps: RecordingStoreDeps) {
    this.deps = deps;
    this.open();
  }

  /** Whether writes reach the database now (for the start-up line). */
  get recording(): boolean {
    return this.store !== null && this.down === null;
  }

  get generation(): number {
    return this.fresh;
  }

  write<T>(what: string, work: (store: Store) => T): T | null {
    if (this.down && this.deps.monotonic() < this.retryAt) return this.drop();
    if (this.store && this.deleted()) this.replaceDeleted();
    const store = this.store ?? this.open();
    if (!store) return this.drop();
    try {
      const result = work(store);
      this.recovered();
      return result;
    } catch (error) {
      const problem = storeError(this.deps.path, error);
      if (problem.problem === 'corrupt') this.replaceDamaged(problem);
      else this.fail(problem, what);
      return this.drop();
    }
  }

  /** Once a poll: a database deleted under the run is noticed now, not at the next write that happens to come. */
  notice(): void {
    if (this.store && this.deleted()) {
      this.replaceDeleted();
      this.open();
    }
  }

  close(): void {
    // A lock that outlasted the run: its count is said here, since no write will say it.
    if (this.down?.problem === 'locked' && this.dropped > 0)
      this.deps.logger.log(
        'warn',
        `${this.dropped} records of this run were dropped: ${this.deps.path} stayed locked by another writer until the end`,
      );
    this.down = null;
    this.dropped = 0;
    this.release();
  }

  private release(): void {
    this.store?.close();
    this.store = null;
  }

  private drop(): null {
    this.dropped++;
    return null;
  }

  private open(): Store | null {
    try {
      this.store = this.deps.open();
      for (const note of this.store.notes.splice(0)) this.deps.logger.log('notice', note);
      this.identity = this.deps.path === ':memory:' || !existsSync(this.deps.path) ? null : statSync(this.deps.path);
      this.recovered();
      return this.store;
    } catch (error) {
      const problem = storeError(this.deps.path, error);
      if (problem.problem === 'corrupt') return this.replaceDamaged(problem);
      this.fail(problem, 'anything');
      return null;
    }
  }

  /** The file at the path is gone, or is another file: what this store writes would go nowhere. */
  private deleted(): boolean {
    if (this.identity === null) return false;
    try {
      const now = statSync(this.deps.path);
      return now.ino !== this.identity.ino || now.dev !== this.identity.dev;
    } catch {
      return true;
    }
  }

  private replaceDeleted(): void {
    this.release();
    const dir = dirname(this.deps.path);
    this.deps.logger.log(
      'warn',
      `${this.deps.path} was deleted while the run recorded into it${existsSync(dir) ? '' : ` (with its directory ${dir})`}: the records before it went with it; recording goes on in a fresh database there`,
    );
    this.fresh++;
  }

  /** Damaged: keep the old file under another name and start a fresh database in its place. */
  private replaceDamaged(problem: StoreError): Store | null {
    this.release();
    try {
      const aside = moveAside(this.deps.path, this.deps.wall());
      this.deps.logger.log('warn', `${problem.message}; moved it aside to ${aside} and started a fresh one`);
      this.fresh++;
      return this.open();
    } catch (error) {
      this.fail(storeError(this.deps.path, error), 'anything');
      return null;
    }
  }

  private fail(problem: StoreError, what: string): void {
    const locked = problem.problem === 'locked';
    const retryMs = locked ? LOCKED_RETRY_MS : (this.deps.retryMs ?? RETRY_MS);
    this.retryAt = this.deps.monotonic() + retryMs;
    if (this.down?.problem === problem.problem) return;
    this.down = problem;
    if (locked) {
      this.deps.logger.log(
        'warn',
        `not recording ${what}: ${problem.message}; the work's output does not wait for it: records are dropped, and counted, until the lock is free (tried again every ${retryMs / 1000}s)`,
      );
    } else {
      reportFault(
        this.deps.logger,
        'recording',
        this.deps.path,
        `not recording ${what}: ${problem.message}; the work goes on unrecorded, and recording resumes when the database can be written (tried again every ${Math.round(retryMs / 1000)}s)`,
      );
    }
  }

  private recovered(): void {
    if (!this.down) return;
    this.down = null;
    this.deps.logger.faults?.cleared('recording');
    const dropped = this.dropped;
    this.dropped = 0;
    this.deps.logger.log(
      'notice',
      `recording again in ${this.deps.path}${dropped > 0 ? ` (${dropped} ${dropped === 1 ? 'record' : 'records'} dropped while it could not be written)` : ''}`,
    );
  }
}

/** A sink over a store some command already opened (`deadman revive`'s records of a spent budget). */
export function sinkOver(store: Store, logger: Logger, clock: Clock): StoreSink {
  return new RecordingStore({
    path: store.path,
    open: () => store,
    logger,
    wall: () => clock.wall(),
    monotonic: () => clock.monotonic(),
  });
}
