import { z } from 'zod';
import { parseDuration } from '../time/duration.ts';
import { MAX_NAME_LENGTH, NAME_PATTERN } from './name-pattern.ts';
import { spanPattern } from './span-pattern.ts';

/**
 * The field types deadman.toml's schema (config.ts) is built of: durations in systemd's syntax
 * with a range per key, regexes that compile, absolute paths, argv lists, http URLs, names.
 */

/** What a duration key accepts: at most `max`, at least `min`; with `off`, "off" and "infinity" mean 0 (disabled). */
interface DurationLimits {
  max: string;
  min?: string;
  off?: true;
}

/** Node's timers fire at once past 2^31-1 ms (about 24.8 days); no key that reaches a timer may exceed this. */
export const TIMER_MAX = '24d';
/** Waits inside one supervision tick or one hook: they add up into the tick budget, so they stay short. */
export const SHORT_MAX = '1h';
/** Ages compared with the clock, never waited for. */
/** `revive.max_revives`' upper bound (docs/revive.md): past it a session that keeps dying needs a person. */
export const MAX_REVIVES = 20;
export const AGE_MAX = '10y';

export function duration(limits: DurationLimits) {
  const maxMs = spanMs(limits.max);
  const minMs = limits.min === undefined ? 0 : spanMs(limits.min);
  const range = `${limits.min ?? '0'} to ${limits.max}${limits.off ? ', or "off"' : ''}`;
  return z
    // Not z.number(): it refuses inf and nan before this transform could name the range.
    .custom<string | number>((value) => typeof value === 'string' || typeof value === 'number', { message: 'must be a quoted time span such as "90s", or a number of seconds' })
    .transform((value, ctx) => {
      const fail = (message: string) => {
        ctx.addIssue({ code: 'custom', message: `${message}; allowed: ${range}` });
        return z.NEVER;
      };
      const text = String(value).trim();
      if (text === 'off' || text === 'infinity') return limits.off ? 0 : fail(`cannot be ${text} here`);
      const parsed = parseDuration(String(value));
      if (!parsed.ok) return fail(parsed.error);
      if (parsed.ms > maxMs) return fail('is above the maximum');
      if (parsed.ms < minMs) return fail('is below the minimum');
      return parsed.ms;
    })
    .meta({
      description: `systemd time span ("90s", "7min", "1h 30min", "1.5h", "3 days"): ${range}`,
      // For the JSON Schema (editors): the syntax exactly; the range is only in the description.
      anyOf: [{ type: 'string', pattern: spanPattern(limits.off === true) }, { type: 'number', minimum: 0 }],
    });
}

function spanMs(text: string): number {
  const parsed = parseDuration(text);
  if (!parsed.ok) throw new Error(`bad built-in limit ${text}`);
  return parsed.ms;
}

export const regex = z.string().meta({ format: 'regex' }).superRefine((value, ctx) => {
  try {
    new RegExp(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: `is not a valid regular expression (${(error as Error).message})` });
  }
});

export const absolutePath = z.string().refine((p) => p.startsWith('/'), { message: 'must be an absolute path (start with /)' }).meta({ pattern: '^/' });
export const argv = z.array(z.string()).min(1, { message: 'needs at least the program to run' });
export const httpUrl = z.string().refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), { message: 'must be an http:// or https:// URL' })
  .meta({ format: 'uri', pattern: '^https?://' });
export const name = z.string().regex(NAME_PATTERN, { message: `may use only letters, digits and _ . @ - (at most ${MAX_NAME_LENGTH})` });
