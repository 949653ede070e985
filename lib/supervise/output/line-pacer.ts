import type { Line } from '../../core/adapters/lines.ts';
import { release } from '../../io/output/passthrough.ts';

/**
 * Hands a stream's lines over in slices of at most SLICE_MS of work and lets the event loop
 * through between slices (setImmediate), so the watchdog timer and the poll run on time whatever
 * the output volume. Handling each read's lines at once held the loop for up to 1.75 s under a
 * flat-out stream of Claude events on an idle host (a database row per event), and past
 * WatchdogSec=2s with both cores busy: systemd killed a healthy agent. Lines keep their order.
 *
 * What waits is the output's bytes, not its lines: a chunk is split only when its turn comes, in
 * pieces of PIECE_BYTES, so at most one piece's lines (and the string they were sliced from)
 * exist at a time and each dies young. A backlog of split lines and the 64 KiB strings they were
 * sliced from (128 KiB for binary garbage, two bytes a character) outlived V8's young-generation
 * collections under a flood and was promoted by the megabyte, to be freed only by a full
 * collection: 200 MB of random bytes peaked at 118–216 MB with an agent adapter. While more than
 * BACKLOG_HIGH_BYTES wait, the pipe is held paused, so the child feels the back-pressure and
 * deadman's memory stays bounded.
 */

export interface LinePacer {
  /** Queues a chunk of output (copied, in pieces: the caller may free it at once) that arrived at monotonic `arrivedAt`. */
  push(chunk: Uint8Array, arrivedAt: number): void;
  /** Queues the end of the stream, after which `split(null)` gives its unterminated last line. */
  end(): void;
  /** Resolves once every chunk pushed so far has been split and its lines handled. */
  idle(): Promise<void>;
}

export interface PacerHooks {
  /** The lines a chunk completes, in order; `null`: the stream ended. */
  split(chunk: Uint8Array | null): readonly Line[];
  /**
   * `now`: when the chunk that completed the line arrived — the time the trace records for it —
   * however late its slice comes, so a replay places the line's events where the live run did.
   * On a busy host a live run that read the clock again (after the trace's write, or in the
   * next slice, once an earlier line's marker write had spent the slice) put a tool's birth
   * outside its window, and the replay inside it.
   */
  handle(line: Line, now: number): void;
  /** Hold the pipe paused (true) or let it go (false). */
  hold(held: boolean): void;
  /** After each slice: the pipe is still busy while its backlog is worked off. */
  sliced(): void;
  monotonic(): number;
}

/** Short enough that a ping due every WatchdogSec/2 is never late by much, even on a loaded host. */
export const SLICE_MS = 20;
export const BACKLOG_HIGH_BYTES = 256 * 1024;
/** Small enough that one piece's lines are a small part of V8's young generation (1 MiB under bin/deadman.js's flag). */
const PIECE_BYTES = 8 * 1024;
const BACKLOG_LOW_BYTES = BACKLOG_HIGH_BYTES / 4;

/** The chunks waiting to be split, and the lines of the one being handled. */
class ChunkQueue {
  /** Chunks not split yet (null is the stream's end), and when each arrived. */
  private chunks: Array<Uint8Array | null> = [];
  private arrivals: number[] = [];
  private head = 0;
  /** The split chunk being handled, how far, and when it arrived. */
  private lines: readonly Line[] = [];
  private next = 0;
  private linesArrivedAt = 0;
  bytes = 0;

  constructor(private readonly split: PacerHooks['split']) {}

  get empty(): boolean {
    return this.head >= this.chunks.length && this.next >= this.lines.length;
  }

  add(chunk: Uint8Array | null, arrivedAt: number): void {
    this.chunks.push(chunk);
    this.arrivals.push(arrivedAt);
    if (chunk) this.bytes += chunk.length;
  }

  /** The next line to handle and when the chunk that completed it arrived, splitting the next chunk when the current one is done; null when none is left. */
  take(): { line: Line; arrivedAt: number } | null {
    while (this.next >= this.lines.length) {
      if (this.head >= this.chunks.length) {
        [this.chunks, this.arrivals, this.head, this.lines, this.next] = [[], [], 0, [], 0];
        return null;
      }
      const chunk = this.chunks[this.head]!;
      this.linesArrivedAt = this.arrivals[this.head]!;
      this.chunks[this.head++] = null; // freed as it is split
      this.lines = this.split(chunk);
      this.next = 0;
      if (chunk) {
        this.bytes -= chunk.length;
        release(chunk);
      }
    }
    return { line: this.lines[this.next++]!, arrivedAt: this.linesArrivedAt };
  }
}

export function paceLines(hooks: PacerHooks): LinePacer {
  const queue = new ChunkQueue(hooks.split);
  let running = false;
  let scheduled = false;
  let held = false;
  let waiters: Array<() => void> = [];

  const slice = () => {
    scheduled = false;
    running = true;
    let now = hooks.monotonic();
    const until = now + SLICE_MS;
    for (let next = queue.take(); next; next = now < until ? queue.take() : null) {
      hooks.handle(next.line, next.arrivedAt);
      now = hooks.monotonic();
    }
    running = false;
    hooks.sliced();
    if (held && queue.bytes <= BACKLOG_LOW_BYTES) {
      held = false;
      hooks.hold(false);
    }
    if (!queue.empty) {
      scheduled = true;
      setImmediate(slice);
      return;
    }
    for (const resolve of waiters.splice(0)) resolve();
  };

  const enqueue = (pieces: Array<Uint8Array | null>, arrivedAt: number) => {
    for (const piece of pieces) queue.add(piece, arrivedAt);
    if (!held && queue.bytes > BACKLOG_HIGH_BYTES) {
      held = true;
      hooks.hold(true);
    }
    // A quiet stream's lines are handled at once; a backlog waits for its turn.
    if (!running && !scheduled) slice();
  };

  return {
    push: (chunk, arrivedAt) => {
      const pieces: Uint8Array[] = [];
      for (let at = 0; at < chunk.length; at += PIECE_BYTES)
        pieces.push(new Uint8Array(chunk.subarray(at, at + PIECE_BYTES)));
      if (pieces.length > 0) enqueue(pieces, arrivedAt);
    },
    end: () => enqueue([null], hooks.monotonic()),
    idle: () =>
      new Promise<void>((resolve) => {
        if (queue.empty && !running) resolve();
        else waiters.push(resolve);
      }),
  };
}
