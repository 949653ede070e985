import type { Marker } from './marker-schema.ts';

/**
 * The first sentence of a revive prompt: what really stopped the previous run, read from the
 * marker's state and reason (`<outcome>: <reason>`, markRunEnded). A turn that failed on an API
 * error is not told it crashed; a run that waited out a usage limit is told so; only a process
 * exit nobody explained (a crash, a reboot, a watchdog kill, a supervisor that died with the
 * marker still "running") gets the crash sentence. Every opening starts with one of
 * REVIVE_OPENING_HEADS, so the session files still tell deadman's prompts from a person's.
 */

/** The start of a `failed` outcome's reason when the agent said its turn failed (outcome.ts writes it). */
export const TURN_FAILED = "the agent's turn failed: ";

export const CRASH_OPENING =
  'Your previous run in this session was cut off by a process exit (a crash, a restart or a watchdog), not by anything you decided.';
const LIMIT_HEAD = 'Your previous run in this session stopped at the usage limit';
const THROTTLE_HEAD = 'Your previous run in this session stopped because the API throttled requests';
const FAILED_HEAD = 'Your previous turn in this session failed with an error';
const STOPPED_HEAD = 'Your previous run in this session was stopped by deadman';

export const REVIVE_OPENING_HEADS = [CRASH_OPENING, LIMIT_HEAD, THROTTLE_HEAD, FAILED_HEAD, STOPPED_HEAD];

/** The agent's own words quoted in a prompt: one line, bounded. */
const QUOTE_CHARS = 300;

export function reviveOpening(marker: Pick<Marker, 'state' | 'reason'>): string {
  const reason = marker.state === 'interrupted' ? (marker.reason ?? '') : '';
  const [outcome, ...rest] = reason.split(': ');
  const detail = quote(rest.join(': '));
  if (outcome === 'usage-limit') {
    return /throttled/i.test(detail)
      ? `${THROTTLE_HEAD} (${detail}); deadman waited, and the throttle should have lifted.`
      : `${LIMIT_HEAD} of your plan (${detail}); deadman waited for the limit to reset.`;
  }
  if (outcome === 'failed' && reason.startsWith(`failed: ${TURN_FAILED}`)) {
    return `${FAILED_HEAD}, not a crash: ${quote(reason.slice(`failed: ${TURN_FAILED}`.length))}.`;
  }
  if (outcome === 'stalled' || outcome === 'timeout' || outcome === 'cancel-resume')
    return `${STOPPED_HEAD}: ${detail}.`;
  return CRASH_OPENING;
}

function quote(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > QUOTE_CHARS ? `${line.slice(0, QUOTE_CHARS)}…` : line;
}
