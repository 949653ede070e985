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
  return (
    z
      // Not z.number(): it refuses inf and nan before this transform could name the range.
      .custom<string | number>((value) => typeof value === 'string' || typeof value === 'number', {
        message: 'must be a quoted time span such as "90s", or a number of seconds',
      })
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
        anyOf: [
          { type: 'string', pattern: spanPattern(limits.off === true) },
          { type: 'number', minimum: 0 },
        ],
      })
  );
}

function spanMs(text: string): number {
  const parsed = parseDuration(text);
  if (!parsed.ok) throw new Error(`bad built-in limit ${text}`);
  return parsed.ms;
}

export const regex = z
  .string()
  .meta({ format: 'regex' })
  .superRefine((value, ctx) => {
    const problem = regexProblem(value);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: `is not a valid regular expression (${problem})` });
  });

/**
 * Why `source` cannot serve as a regular expression, or null. Constructing a RegExp checks only
 * its syntax: V8 compiles it at its first match, where a pattern of 60 kB failed "Regular
 * expression too large" in the middle of a run (issue 38), so it is matched once here. The
 * reason is V8's without the pattern it quotes (which may be a secret, `redactPattern`).
 */
function regexProblem(source: string): string | null {
  try {
    new RegExp(source).test('');
    return null;
  } catch (error) {
    const message = (error as Error).message;
    return message.slice(message.lastIndexOf(': ') + 2);
  }
}

/** `[redact] patterns`: longer than this is a list of secrets, which belong in the environment the work gets (docs/secrets.md). */
export const REDACT_PATTERN_MAX = 4_096;

/**
 * A `[redact] patterns` entry: it compiles and matches (regexProblem), it is at most
 * REDACT_PATTERN_MAX characters (compiling and running a pattern costs with its size, on every
 * line), and it never matches nothing (every position of every line would become [REDACTED]).
 * A pattern may be the very secret it hides, so its problem is told without its text
 * (`hideValue`: config-problems.ts shows its length instead).
 */
export const redactPattern = z
  .string()
  .meta({ format: 'regex' })
  .superRefine((value, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: 'custom', message, params: { hideValue: true } });
    if (value.length > REDACT_PATTERN_MAX)
      return fail(
        `is longer than ${REDACT_PATTERN_MAX} characters; hide a list of literal secrets by passing them in the work's environment instead`,
      );
    const problem = regexProblem(value);
    if (problem !== null) return fail(`is not a valid regular expression (${problem})`);
    if (new RegExp(value).test(''))
      return fail(
        'matches the empty string, which would put [REDACTED] between every character; make it match at least one character',
      );
  });

export const absolutePath = z
  .string()
  .refine((p) => p.startsWith('/'), { message: 'must be an absolute path (start with /)' })
  .meta({ pattern: '^/' });
export const argv = z.array(z.string()).min(1, { message: 'needs at least the program to run' });
export const httpUrl = z
  .string()
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    message: 'must be an http:// or https:// URL',
  })
  .meta({ format: 'uri', pattern: '^https?://' });
export const name = z
  .string()
  .regex(NAME_PATTERN, { message: `may use only letters, digits and _ . @ - (at most ${MAX_NAME_LENGTH})` });
