/**
 * The one clock. Durations and deadlines use `monotonic()` (never jumps with NTP); records
 * people read use `wall()`. Core code never reads either: it is handed the values.
 */
export interface Clock {
  monotonic(): number;
  wall(): number;
}

export const systemClock: Clock = {
  monotonic: () => performance.now(),
  wall: () => Date.now(),
};

/** The real repeater behind the loop's poll: a plain interval, cancelled by the returned function. */
export function repeatEvery(ms: number, run: () => void): () => void {
  const timer = setInterval(run, ms);
  return () => clearInterval(timer);
}
