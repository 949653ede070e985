import type { AgentEvent } from './agent-events.ts';
import type { ClockTime } from '../detect/reset-clock.ts';

/**
 * Claude Code may say it hit its plan limit only in words: the synthetic assistant text and
 * the `result` (is_error) read "You've hit your limit · resets 2pm (Europe/Berlin)" (older
 * releases: "Claude AI usage limit reached|<epoch s>"). The text must open with the limit
 * phrase — a message that merely mentions limits is no limit. The reset is read as a wall-clock
 * time (12- or 24-hour, optional IANA zone in brackets), made an instant later against the
 * clock (reset-clock.ts); a reset that cannot be read is left out, and then the run does not
 * wait (exit 69, usage-limit-wait.ts). Pure.
 */
const LIMIT_PHRASE = /^\s*(?:you(?:'|’)ve (?:hit|reached) your (?:[\w-]+ )?limit|claude(?: ai)? usage limit reached)/i;
const RESETS = /\bresets?\s+(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*(?:([ap])\.?m\b\.?)?(?:\s*\(([^()\s]+)\))?/i;
const EPOCH = /\|\s*(\d{9,11})\s*$/;
/** Claude's limit texts are one short line; a long text opening with the phrase is the agent talking. */
const MAX_TEXT = 300;

/** Whether a text may be Claude's limit text (cheap: the adapter asks it before validating a line). */
export function mayBeClaudeLimitText(text: string): boolean {
  return text.length <= MAX_TEXT && LIMIT_PHRASE.test(text);
}

export function claudeLimitOfText(text: string): Extract<AgentEvent, { type: 'usage_limit' }> | null {
  if (!mayBeClaudeLimitText(text)) return null;
  const epoch = EPOCH.exec(text);
  const resetsAtClock = epoch ? undefined : clockOf(text);
  return {
    type: 'usage_limit', resetsAtSec: epoch ? Number(epoch[1]) : null, resetsInSec: null, message: 'Claude usage limit reached',
    ...(resetsAtClock ? { resetsAtClock } : {}),
  };
}

function clockOf(text: string): ClockTime | undefined {
  const match = RESETS.exec(text);
  if (!match) return undefined;
  const [, hourText, minuteText, half, timeZone] = match;
  let hour = Number(hourText);
  if (half) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (half.toLowerCase() === 'p' ? 12 : 0);
  }
  return { hour, minute: Number(minuteText ?? 0), timeZone: timeZone ?? null };
}
