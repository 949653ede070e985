import type { Line } from '../core/adapters/lines.ts';

/**
 * Hands lines over in slices of at most SLICE_MS of work and lets the event loop through
 * between slices (setImmediate), so the watchdog timer and the poll run on time whatever the
 * output volume. Handling each read's lines at once held the loop for up to 1.75 s under a
 * flat-out stream of Claude events on an idle host (a database row per event), and past
 * WatchdogSec=2s with both cores busy: systemd killed a healthy agent. While more than
 * BACKLOG_HIGH_CHARS of lines wait, the pipe is held paused, so the child feels the
 * back-pressure and deadman's memory stays bounded. Lines keep their order.
 */

export interface LinePacer {
  push(lines: readonly Line[]): void;
  /** Resolves once every line pushed so far has been handled. */
  idle(): Promise<void>;
}

export interface PacerHooks {
  /** `now`: the monotonic time the line is handled at (the pacer reads the clock anyway). */
  handle(line: Line, now: number): void;
  /** Hold the pipe paused (true) or let it go (false). */
  hold(held: boolean): void;
  /** After each slice: the pipe is still busy while its backlog is worked off. */
  sliced(): void;
  monotonic(): number;
}

/** Short enough that a ping due every WatchdogSec/2 is never late by much, even on a loaded host. */
export const SLICE_MS = 20;
const BACKLOG_HIGH_CHARS = 256 * 1024;
const BACKLOG_LOW_CHARS = BACKLOG_HIGH_CHARS / 4;

export function paceLines(hooks: PacerHooks): LinePacer {
  let queue: Line[] = [];
  let head = 0;
  let backlogChars = 0;
  let running = false;
  let scheduled = false;
  let held = false;
  let waiters: Array<() => void> = [];

  const slice = () => {
    scheduled = false;
    running = true;
    let now = hooks.monotonic();
    const until = now + SLICE_MS;
    while (head < queue.length && now < until) {
      const line = queue[head]!;
      queue[head++] = undefined as unknown as Line; // freed as it is handled
      backlogChars -= line.text.length;
      hooks.handle(line, now);
      now = hooks.monotonic();
    }
    running = false;
    hooks.sliced();
    if (held && backlogChars <= BACKLOG_LOW_CHARS) {
      held = false;
      hooks.hold(false);
    }
    if (head < queue.length) {
      scheduled = true;
      setImmediate(slice);
      return;
    }
    queue = [];
    head = 0;
    for (const resolve of waiters.splice(0)) resolve();
  };

  return {
    push(lines) {
      if (lines.length === 0) return;
      for (const line of lines) {
        queue.push(line);
        backlogChars += line.text.length;
      }
      if (!held && backlogChars > BACKLOG_HIGH_CHARS) {
        held = true;
        hooks.hold(true);
      }
      // A quiet stream's lines are handled at once; a backlog waits for its turn.
      if (!running && !scheduled) slice();
    },
    idle: () => new Promise<void>((resolve) => {
      if (head >= queue.length && !running) resolve();
      else waiters.push(resolve);
    }),
  };
}
