import type { AgentEvent } from './agent-events.ts';

/**
 * Codex reports a plan/usage limit as an error whose body has `"type":"usage_limit_reached"`,
 * `resets_at` (epoch seconds) and `resets_in_seconds`, carried as the message text of an `error`
 * event and of the `turn.failed` after it — sometimes only as text ("The usage limit has been
 * reached"). Both the structured fields and the text are matched; a line matching neither is no
 * limit. Pure: fields are read with patterns, so a body nested in a string still counts.
 */
const LIMIT_TYPE = /usage_limit_reached/;
const LIMIT_TEXT = /usage limit has been reached|you've hit your usage limit/i;
const RESETS_AT = /\\?"resets_at\\?"\s*:\s*(\d{9,11})/;
const RESETS_IN = /\\?"resets_in_seconds\\?"\s*:\s*(\d{1,9})/;

export function usageLimitOf(message: string): AgentEvent[] {
  if (!LIMIT_TYPE.test(message) && !LIMIT_TEXT.test(message)) return [];
  const at = RESETS_AT.exec(message);
  const inSeconds = RESETS_IN.exec(message);
  return [{
    type: 'usage_limit',
    resetsAtSec: at ? Number(at[1]) : null,
    resetsInSec: inSeconds ? Number(inSeconds[1]) : null,
    message: 'Codex usage limit reached',
  }];
}
