import { formatDuration } from '../time/duration.ts';
import { nextClockTime, type ClockTime } from './reset-clock.ts';

/**
 * USAGE_LIMIT: the agent's turn failed on a plan or usage limit (Claude `rate_limit_event`
 * rejected, its text "You've hit your session limit · resets 3:58pm (UTC)", Codex's "You’ve hit
 * your usage limit … try again at 3:54 PM"), or on a throttle that is not the plan's limit
 * (Claude's "not your usage limit", a `rejected` event with no reset, a 429 after the agent's
 * own retries). Restarting before the reset only burns retries, so the run waits in-process,
 * feeding the watchdog, and then resumes the session. Pure: the clocks are passed in.
 */

export interface UsageLimitSeen {
  resetsAtSec: number | null;
  resetsInSec: number | null;
  /** Only a wall-clock time was given (the agents' texts): the end of that minute, next after the line. */
  resetsAtClock?: ClockTime | undefined;
  /** A throttle, not the plan's limit: waited out with a short bounded backoff. */
  throttle?: boolean | undefined;
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

/** What the wait is about: the reset when the agent gave one, and whether it is only a throttle. */
export interface UsageLimitEnd {
  resetAt: number | null;
  throttle: boolean;
}

/** `restart`: give up with a code that asks for a restart (a throttle), else "do not restart" (69). */
export type UsageWait =
  { wait: true; resumeAt: number; backoff: boolean } | { wait: false; reason: string; restart: boolean };

export interface UsageWaitLimits {
  maxWaitMs: number;
  jitterMs: number;
  /** `usage_limit.backoff`: the first wait after a throttle. */
  backoffMs: number;
}

/**
 * Backoff waits taken in a row before this one, in this run (the pass loop counts them; any
 * other outcome starts the count over): a throttle waits `backoff`, then twice that, … at most
 * THROTTLE_WAITS times (4 × from 15 s: 15 s, 30 s, 1 min, 2 min), below the revive budget's
 * default of 5, so the budget is never what ends it; then the run exits for a restart (75),
 * never 69. A plan limit with no known reset ("try again later") waits 15 min, 30 min, 1 h, 2 h,
 * while the waits in a row stay within `max_wait`; then exit 69 as for a reset beyond it.
 */
export interface EarlierBackoffs {
  count: number;
  waitedMs: number;
}

const THROTTLE_WAITS = 4;
const UNKNOWN_RESET_FIRST_MS = 15 * 60_000;
const UNKNOWN_RESET_WAITS = 4;

/**
 * Whether to wait in-process, and until when: the reset plus a jitter (`random` in [0, 1) of
 * `jitterMs`, so a fleet does not resume at the same second), within `maxWaitMs`; or a backoff
 * when no reset is known (the same random spreads it by up to a tenth).
 */
export function planUsageWait(
  limit: UsageLimitEnd,
  earlier: EarlierBackoffs,
  nowWall: number,
  limits: UsageWaitLimits,
  random: number,
): UsageWait {
  if (limit.throttle && limit.resetAt !== null) return planStatedThrottle(limit.resetAt, earlier, nowWall, random);
  if (limit.throttle || limit.resetAt === null) return planBackoff(limit.throttle, earlier, nowWall, limits, random);
  const resumeAt = Math.max(nowWall, limit.resetAt) + Math.floor(random * limits.jitterMs);
  if (resumeAt - nowWall > limits.maxWaitMs) {
    return {
      wait: false,
      restart: false,
      reason: `the limit resets at ${utcTime(limit.resetAt)}, beyond usage_limit.max_wait (${formatDuration(limits.maxWaitMs)}) from now`,
    };
  }
  return { wait: true, resumeAt, backoff: false };
}

/**
 * A throttle that said how long to wait ("try again in 1.898s", a `retry-after`): that delay, and
 * up to a tenth more, instead of `backoff`; still one of the THROTTLE_WAITS in a row.
 */
function planStatedThrottle(resetAt: number, earlier: EarlierBackoffs, nowWall: number, random: number): UsageWait {
  if (earlier.count >= THROTTLE_WAITS)
    return {
      wait: false,
      restart: true,
      reason: `the API throttled the agent (not its usage limit) again after ${THROTTLE_WAITS} backoff waits in a row`,
    };
  const delay = Math.max(0, resetAt - nowWall);
  return { wait: true, resumeAt: nowWall + delay + Math.floor((random * delay) / 10), backoff: true };
}

function planBackoff(
  throttle: boolean,
  earlier: EarlierBackoffs,
  nowWall: number,
  limits: UsageWaitLimits,
  random: number,
): UsageWait {
  const [first, most] = throttle ? [limits.backoffMs, THROTTLE_WAITS] : [UNKNOWN_RESET_FIRST_MS, UNKNOWN_RESET_WAITS];
  const delay = first * 2 ** earlier.count;
  const what = throttle ? 'the API throttled the agent (not its usage limit)' : 'the agent gave no reset time';
  if (earlier.count >= most)
    return { wait: false, restart: throttle, reason: `${what} again after ${most} backoff waits in a row` };
  if (!throttle && earlier.waitedMs + delay > limits.maxWaitMs) {
    return {
      wait: false,
      restart: false,
      reason: `${what}, and a backoff of ${formatDuration(delay)} would pass usage_limit.max_wait (${formatDuration(limits.maxWaitMs)})`,
    };
  }
  return { wait: true, resumeAt: nowWall + delay + Math.floor((random * delay) / 10), backoff: true };
}

/** `waiting for usage limit reset at 14:00 UTC (in 3h 20m)`: the STATUS= while the run waits; a backoff says so. */
export function usageWaitStatus(resumeAt: number, nowWall: number, backoff = false): string {
  const left = formatDuration(Math.ceil(Math.max(0, resumeAt - nowWall) / 1000) * 1000);
  return backoff
    ? `backing off until ${utcTime(resumeAt)} (in ${left}), then resuming the session`
    : `waiting for usage limit reset at ${utcTime(resumeAt)} (in ${left})`;
}

function utcTime(epochMs: number): string {
  const d = new Date(epochMs);
  const hm = [d.getUTCHours(), d.getUTCMinutes()].map((n) => String(n).padStart(2, '0')).join(':');
  return `${hm}${d.getUTCSeconds() ? `:${String(d.getUTCSeconds()).padStart(2, '0')}` : ''} UTC`;
}
