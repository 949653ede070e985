/**
 * The one clock. Durations and deadlines use `monotonic()` (never jumps with NTP); records
 * people read use `wall()`. Core code never reads either: it is handed the values. Defined
 * here, not beside its implementation (io/clock.ts), so io and the loop (supervise/ports.ts)
 * both take it from below.
 */
export interface Clock {
  monotonic(): number;
  wall(): number;
}
