import type { AgentEvent } from './agent-events.ts';
import { dateOf, hourOf, type ClockTime } from '../detect/reset-clock.ts';

/**
 * Codex reports a plan/usage limit as an `error` event and the `turn.failed` after it. What
 * 0.169 prints (agent-formats.md §F) is only words: "You’ve hit your usage limit. Upgrade to Pro
 * (…), visit … to purchase more credits or try again at 3:54 PM." — U+2019 in "You’ve", the reset
 * a local wall-clock time cut to the minute, a date before it when the reset is not today
 * ("try again at Dec 4th, 2026 3:54 PM"), or "… or try again later." with no reset at all. Older
 * releases passed the backend's body on (`"type":"usage_limit_reached"`, `resets_at`,
 * `resets_in_seconds`), sometimes escaped inside a string. All are matched; a line matching none
 * is no limit. A plain 429 whose retries ran out ("exceeded retry limit, last status: 429 Too
 * Many Requests", on `turn.failed` only: the same words in a "Reconnecting…" error are a retry
 * still under way) is a throttle, not a plan limit. Pure.
 */
const LIMIT_TYPE = /usage_limit_reached/;
/** Any apostrophe: ASCII, U+2019 (what 0.169 prints), U+2018, U+02BC, a backtick. */
const LIMIT_TEXT = /usage limit has been reached|you['’‘ʼ`]ve hit your usage limit/i;
const RESETS_AT = /\\?"resets_at\\?"\s*:\s*(\d{9,11})/;
const RESETS_IN = /\\?"resets_in_seconds\\?"\s*:\s*(\d{1,9})/;
const TRY_AGAIN_AT = /try again at\s+(?:([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\s+)?(\d{1,2}):(\d{2})\s*([ap])\.?\s?m\b/i;
const THROTTLE_TEXT = /exceeded retry limit, last status: 429\b/;

/** `turnFailed`: the message ends the turn (`turn.failed`), so a throttle in it is final. */
export function usageLimitOf(message: string, turnFailed = false): AgentEvent[] {
  if (!LIMIT_TYPE.test(message) && !LIMIT_TEXT.test(message)) {
    return turnFailed && THROTTLE_TEXT.test(message)
      ? [{ type: 'usage_limit', resetsAtSec: null, resetsInSec: null, throttle: true, message: 'Codex API throttled (429 after its retries), not a usage limit' }]
      : [];
  }
  const at = RESETS_AT.exec(message);
  const inSeconds = RESETS_IN.exec(message);
  const clock = at || inSeconds ? undefined : tryAgainAt(message);
  return [{
    type: 'usage_limit',
    resetsAtSec: at ? Number(at[1]) : null,
    resetsInSec: inSeconds ? Number(inSeconds[1]) : null,
    message: 'Codex usage limit reached',
    ...(clock ? { resetsAtClock: clock } : {}),
  }];
}

/** "try again at 3:54 PM" in the host's zone (Codex formats it in its own local time); undefined for "try again later" or anything unreadable. */
function tryAgainAt(message: string): ClockTime | undefined {
  const match = TRY_AGAIN_AT.exec(message);
  if (!match) return undefined;
  const [, monthText, dayText, yearText, hourText, minuteText, half] = match;
  const hour = hourOf(hourText!, half);
  const date = monthText ? dateOf(monthText, dayText!, yearText!) : undefined;
  if (hour === null || (monthText && !date)) return undefined;
  return { hour, minute: Number(minuteText), timeZone: null, ...(date ? { date } : {}) };
}
