import type { AgentEvent } from './agent-events.ts';
import { dateOf, hourOf, type ClockTime } from '../detect/reset-clock.ts';
import { headerReset } from './limit-headers.ts';

/**
 * Codex reports a limit as an `error` event and the `turn.failed` after it, and what it prints
 * tells three kinds apart (agent-formats.md §F, §F.1):
 *
 * - spent credit or a spend limit — "Quota exceeded. Check your plan and billing details.", or
 *   the backend's `insufficient_quota`, `credit_balance_exhausted`,
 *   `organization_spend_limit_exceeded`, `project_spend_limit_exceeded`: no reset will come;
 * - the plan's window — `usage_limit_reached`, or 0.169's words "You’ve hit your usage limit. …
 *   try again at 3:54 PM." (U+2019 in "You’ve"; a date before the time when the reset is not
 *   today, "try again at Sep 18th, 2026 12:04 AM"; "… or try again later." with no reset);
 * - a throttle — `rate_limit_exceeded` / "Rate limit reached …", with its stated delay ("try
 *   again in 28ms / 1.898s / 35 seconds") when there is one, or a plain 429 whose retries ran
 *   out ("exceeded retry limit, last status: 429 Too Many Requests", on `turn.failed` only: the
 *   same words in a "Reconnecting…" error are a retry still under way).
 *
 * The reset is read from data first: the body's `resets_at`, `resets_in_seconds`, then headers
 * passed on (limit-headers.ts), then the words. A line matching none is no limit. Pure.
 */
const CREDIT =
  /\b(?:insufficient_quota|credit_balance_exhausted|organization_spend_limit_exceeded|project_spend_limit_exceeded)\b|quota exceeded\. check your plan and billing details/i;
const CREDIT_TYPE =
  /\b(insufficient_quota|credit_balance_exhausted|organization_spend_limit_exceeded|project_spend_limit_exceeded)\b/;
const LIMIT_TYPE = /usage_limit_reached/;
/** Any apostrophe: ASCII, U+2019 (what 0.169 prints), U+2018, U+02BC, a backtick. */
const LIMIT_TEXT = /usage limit has been reached|you['’‘ʼ`]ve hit your usage limit/i;
const THROTTLE_TYPE = /\brate_limit_exceeded\b|\brate limit reached\b/i;
const RESETS_AT = /\\?"resets_at\\?"\s*:\s*(\d{9,11})/;
const RESETS_IN = /\\?"resets_in_seconds\\?"\s*:\s*(\d{1,9})/;
const TRY_AGAIN_AT =
  /try again at\s+(?:([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\s+)?(\d{1,2}):(\d{2})\s*([ap])\.?\s?m\b/i;
/** The delay Codex itself reads from a throttle's message. */
const TRY_AGAIN_IN = /try again in\s*(\d+(?:\.\d+)?)\s*(ms|s|seconds?)\b/i;
const RECONNECTING = /^\s*Reconnecting\b/i;
const RETRIES_SPENT = /exceeded retry limit, last status: 429\b/;

type LimitEvent = Extract<AgentEvent, { type: 'usage_limit' }>;

/** `turnFailed`: the message ends the turn (`turn.failed`), so a throttle in it is final. */
export function usageLimitOf(message: string, turnFailed = false): AgentEvent[] {
  if (CREDIT.test(message)) return [{ type: 'credit_exhausted', message: creditMessage(message) }];
  if (LIMIT_TYPE.test(message) || LIMIT_TEXT.test(message)) return [windowLimit(message)];
  const throttle = throttleOf(message, turnFailed);
  return throttle ? [throttle] : [];
}

function creditMessage(message: string): string {
  const type = CREDIT_TYPE.exec(message)?.[1];
  return `Codex: the account's credit or spend limit is spent (${type ?? 'quota exceeded'})`;
}

function windowLimit(message: string): LimitEvent {
  const at = RESETS_AT.exec(message);
  const inSeconds = RESETS_IN.exec(message);
  const headers = at || inSeconds ? null : headerReset(message);
  const clock = at || inSeconds || headers ? undefined : tryAgainAt(message);
  return {
    type: 'usage_limit',
    resetsAtSec: at ? Number(at[1]) : (headers?.resetsAtSec ?? null),
    resetsInSec: inSeconds ? Number(inSeconds[1]) : (headers?.resetsInSec ?? null),
    message: 'Codex usage limit reached',
    ...(clock ? { resetsAtClock: clock } : {}),
  };
}

/** A named throttle whenever it is reported (Codex does not retry it); a bare 429 only once its retries are spent. */
function throttleOf(message: string, turnFailed: boolean): LimitEvent | null {
  if (!turnFailed && RECONNECTING.test(message)) return null;
  const named = THROTTLE_TYPE.test(message);
  if (!named && !(turnFailed && RETRIES_SPENT.test(message))) return null;
  const stated = TRY_AGAIN_IN.exec(message);
  const delay = stated
    ? Number(stated[1]) / (stated[2]!.toLowerCase() === 'ms' ? 1000 : 1)
    : (headerReset(message)?.resetsInSec ?? null);
  const what = named ? 'rate_limit_exceeded' : '429 after its retries';
  return {
    type: 'usage_limit',
    resetsAtSec: null,
    resetsInSec: delay,
    throttle: true,
    message: `Codex API throttled (${what}), not a usage limit`,
  };
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
