import type { AgentEvent } from './agent-events.ts';
import { hourOf, type ClockTime } from '../detect/reset-clock.ts';

/**
 * Claude Code may say it hit its plan limit only in words: the synthetic assistant text and
 * the `result` (is_error) read "You've hit your session limit · resets 3:58pm (UTC)" (older
 * releases: "Claude AI usage limit reached|<epoch s>"). The text must open with the limit
 * phrase — a message that merely mentions limits is no limit. The reset is read as a wall-clock
 * time (12- or 24-hour, optional IANA zone in brackets), made an instant later against the
 * clock (reset-clock.ts: the end of the stated minute); a limit whose reset cannot be read is
 * one with no known reset (usage-limit.ts waits it out with a bounded backoff).
 *
 * A throttle is not a plan limit: "API Error: Server is temporarily limiting requests (not your
 * usage limit) · …", or "API Error: Request rejected (429) · …" once Claude's own retries ran
 * out. It is a transient failure (`throttle`), never a reason to stop for good.
 *
 * Spent credit is neither: "Credit balance is too low" (the `<synthetic>` message, whose
 * top-level `error` is `billing_error`, and the is_error `result`, 2.1.332) has no reset to wait
 * for — only a person adding credit helps (`credit_exhausted`). Pure.
 */
const LIMIT_PHRASE = /^\s*(?:you['’‘ʼ`]ve (?:hit|reached) your (?:[\w-]+ )?limit|claude(?: ai)? usage limit reached)/i;
const THROTTLE_PHRASE =
  /^\s*API Error:.*(?:not your usage limit|temporarily limiting requests|Request rejected \(429\))/i;
const RESETS = /\bresets?\s+(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*(?:([ap])\.?m\b\.?)?(?:\s*\(([^()\s]+)\))?/i;
const EPOCH = /\|\s*(\d{9,11})\s*$/;
const CREDIT_PHRASE = /^\s*(?:API Error:.*)?(?:your )?credit balance is too low\b/i;
/** Claude's limit texts are one short line; a long text opening with the phrase is the agent talking. */
const MAX_TEXT = 300;

/** Whether a text may be Claude's limit or throttle text (cheap: the adapter asks it before validating a line). */
export function mayBeClaudeLimitText(text: string): boolean {
  return text.length <= MAX_TEXT && (LIMIT_PHRASE.test(text) || THROTTLE_PHRASE.test(text) || CREDIT_PHRASE.test(text));
}

type LimitEvent = Extract<AgentEvent, { type: 'usage_limit' | 'credit_exhausted' }>;

export function claudeLimitOfText(text: string): LimitEvent | null {
  if (text.length > MAX_TEXT) return null;
  if (CREDIT_PHRASE.test(text)) return claudeCreditExhausted();
  if (THROTTLE_PHRASE.test(text)) return claudeThrottle();
  if (!LIMIT_PHRASE.test(text)) return null;
  const epoch = EPOCH.exec(text);
  const resetsAtClock = epoch ? undefined : clockOf(text);
  return {
    type: 'usage_limit',
    resetsAtSec: epoch ? Number(epoch[1]) : null,
    resetsInSec: null,
    message: 'Claude usage limit reached',
    ...(resetsAtClock ? { resetsAtClock } : {}),
  };
}

/** A `rate_limit_event` rejected with no `resetsAt`, or the throttle text: the API throttles, the plan is not spent. */
export function claudeThrottle(): Extract<AgentEvent, { type: 'usage_limit' }> {
  return {
    type: 'usage_limit',
    resetsAtSec: null,
    resetsInSec: null,
    throttle: true,
    message: 'Claude API throttled (not a usage limit)',
  };
}

/** The synthetic message's `billing_error`, or its words. */
export function claudeCreditExhausted(): Extract<AgentEvent, { type: 'credit_exhausted' }> {
  return { type: 'credit_exhausted', message: 'Claude: the credit balance is too low (billing_error)' };
}

function clockOf(text: string): ClockTime | undefined {
  const match = RESETS.exec(text);
  if (!match) return undefined;
  const [, hourText, minuteText, half, timeZone] = match;
  const hour = hourOf(hourText!, half);
  if (hour === null) return undefined;
  return { hour, minute: Number(minuteText ?? 0), timeZone: timeZone ?? null };
}
