/**
 * The reset a rate-limit response's headers state, when an agent passes the response on in an
 * error text (as `name: value` or JSON `"name":"value"`): `retry-after` (seconds, the HTTP
 * form), `retry-after-ms`, and Anthropic's `anthropic-ratelimit-unified-reset` (with the
 * window's name or without: epoch seconds). Read after the body's own fields and before the
 * agent's words (codex-usage-limit.ts, claude-usage-limit.ts). Pure.
 */

export interface HeaderReset {
  resetsAtSec: number | null;
  resetsInSec: number | null;
}

const SEPARATOR = String.raw`\\?"?\s*[:=]\s*\\?"?`;
const RETRY_AFTER_MS = new RegExp(String.raw`\bretry-after-ms${SEPARATOR}(\d{1,9})(?![\d.])`, 'i');
const RETRY_AFTER = new RegExp(String.raw`\bretry-after${SEPARATOR}(\d{1,7})(?![\d.])`, 'i');
const UNIFIED_RESET = new RegExp(
  String.raw`\banthropic-ratelimit-unified(?:-[0-9a-z]{1,4})?-reset${SEPARATOR}(\d{9,11})\b`,
  'i',
);

/** The stated reset, or null when no header names one. */
export function headerReset(text: string): HeaderReset | null {
  const at = UNIFIED_RESET.exec(text);
  if (at) return { resetsAtSec: Number(at[1]), resetsInSec: null };
  const inMs = RETRY_AFTER_MS.exec(text);
  if (inMs) return { resetsAtSec: null, resetsInSec: Number(inMs[1]) / 1000 };
  const inSeconds = RETRY_AFTER.exec(text);
  return inSeconds ? { resetsAtSec: null, resetsInSec: Number(inSeconds[1]) } : null;
}
