import type { Clock } from '../../core/time/clock.ts';

/** The real clock (core/time/clock.ts), named in lib/ only where commands build their edges (commands/shared/command-clock.ts). */
export const systemClock: Clock & { sleep(ms: number): Promise<void> } = {
  // The monotonic clock performance.now() reads too, from about the same origin (the process's
  // start), without loading perf_hooks and its nine modules into every start.
  monotonic: () => process.uptime() * 1000,
  wall: () => Date.now(),
  /** The loop's waits (supervise/ports.ts LoopClock): unref'd, so a wait never holds the process open. */
  sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref()),
};

/** The real repeater behind the loop's poll: a plain interval, cancelled by the returned function. */
export function repeatEvery(ms: number, run: () => void): () => void {
  const timer = setInterval(run, ms);
  return () => clearInterval(timer);
}
