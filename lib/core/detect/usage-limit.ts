import { formatDuration } from '../config/duration.ts';
import { nextClockTime, type ClockTime } from './reset-clock.ts';

/**
 * USAGE_LIMIT: the agent's turn failed on a plan or usage limit (Claude `rate_limit_event`
 * rejected, Codex `usage_limit_reached`). Restarting before the reset only burns retries, so
 * the run waits for the reset, feeding the watchdog, and then resumes the session. Pure: the
 * clocks are passed in.
 */

export interface UsageLimitSeen {
  resetsAtSec: number | null;
  resetsInSec: number | null;
  /** Only a wall-clock time was given (Claude's text): the next such time after the line. */
  resetsAtClock?: ClockTime | undefined;
  message: string;
  /** Monotonic ms of the line that reported it. */
  at: number;
}

export function detectUsageLimit(seen: UsageLimitSeen | null): { message: string } | null {
  return seen && { message: seen.message };
}

/** The reset as wall-clock ms: the stated instant, else the stated delay or clock time from when it was said; null when none was given. */
export function usageResetAt(seen: UsageLimitSeen, nowMonotonic: number, nowWall: number): number | null {
  const saidAt = nowWall - (nowMonotonic - seen.at);
  if (seen.resetsAtSec !== null) return seen.resetsAtSec * 1000;
  if (seen.resetsInSec !== null) return saidAt + seen.resetsInSec * 1000;
  if (seen.resetsAtClock) return nextClockTime(seen.resetsAtClock, saidAt);
  return null;
}

export type UsageWait = { wait: true; resumeAt: number } | { wait: false; reason: string };

/**
 * Whether to wait in-process, and until when: the reset plus a jitter (`random` in [0, 1) of
 * `jitterMs`, so a fleet does not resume at the same second), within `maxWaitMs`.
 */
export function planUsageWait(resetAt: number | null, nowWall: number, limits: { maxWaitMs: number; jitterMs: number }, random: number): UsageWait {
  if (resetAt === null) return { wait: false, reason: 'the agent gave no reset time' };
  const resumeAt = Math.max(nowWall, resetAt) + Math.floor(random * limits.jitterMs);
  if (resumeAt - nowWall > limits.maxWaitMs) {
    return { wait: false, reason: `the limit resets at ${utcTime(resetAt)}, beyond usage_limit.max_wait (${formatDuration(limits.maxWaitMs)}) from now` };
  }
  return { wait: true, resumeAt };
}

/** `waiting for usage limit reset at 14:00 UTC (in 3h 20m)`: the STATUS= while the run waits. */
export function usageWaitStatus(resumeAt: number, nowWall: number): string {
  return `waiting for usage limit reset at ${utcTime(resumeAt)} (in ${formatDuration(Math.ceil(Math.max(0, resumeAt - nowWall) / 1000) * 1000)})`;
}

function utcTime(epochMs: number): string {
  const d = new Date(epochMs);
  const hm = [d.getUTCHours(), d.getUTCMinutes()].map((n) => String(n).padStart(2, '0')).join(':');
  return `${hm}${d.getUTCSeconds() ? `:${String(d.getUTCSeconds()).padStart(2, '0')}` : ''} UTC`;
}
