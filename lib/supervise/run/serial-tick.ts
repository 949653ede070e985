/**
 * The loop's ticks, one at a time: a tick still running (a kill grace, the diagnostician) is
 * joined, not doubled, and how long ago the latest one began is known, so a tick that outlasts
 * every wait it may make shows the supervision itself is stuck (the watchdog then stops).
 */
export class SerialTick {
  private running: Promise<void> | null = null;
  private startedAt: number;

  constructor(
    private readonly body: () => Promise<void>,
    private readonly monotonic: () => number,
  ) {
    this.startedAt = monotonic();
  }

  /** Starts a tick, or joins the one in flight. */
  run(): Promise<void> {
    if (!this.running) {
      this.startedAt = this.monotonic();
      this.running = this.body().finally(() => (this.running = null));
    }
    return this.running;
  }

  /** Resolves once the tick in flight, if any, has ended. */
  async settled(): Promise<void> {
    await this.running;
  }

  /** Milliseconds since the latest tick began (since construction, before the first). */
  sinceStart(now: number): number {
    return now - this.startedAt;
  }
}

/** The first call runs `start`; every later one joins it, whatever it asks (the tree is stopped once, whoever asks first). */
export function joinFirst<A extends unknown[], T>(start: (...args: A) => T): (...args: A) => T {
  let first: { value: T } | null = null;
  return (...args) => (first ??= { value: start(...args) }).value;
}
