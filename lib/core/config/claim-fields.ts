import { z } from 'zod';
import { TIMER_MAX, duration, name } from './schema-fields.ts';

/**
 * The claim keys beyond a claim's kind: what every claim shares, what a file claim can say
 * besides its size and age (a header, a day, a count), and the plain-English `claim = "…"` of a
 * job or an `[[evidence]]` block, which deadman's own reader (lib/core/claims/) turns into
 * typed claims before anything is checked.
 */

export const claimCommon = {
  name: name.optional(),
  when: z.enum(['always', 'on_exit']).default('on_exit'),
  interval: duration({ max: TIMER_MAX }).default(60_000),
  grace: duration({ max: TIMER_MAX }).default(0),
};

/** An IANA time zone name that this Node knows ("UTC", "Europe/Paris"). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const fileClaimExtras = {
  /** The first line must start with this text (a CSV's column names). */
  header: z.string().min(1).max(4096).optional(),
  /** Modified since the start of today, by the clock and zone of the machine that holds the files. */
  modified_today: z.boolean().optional(),
  time_zone: z
    .string()
    .refine(isTimeZone, { message: 'must be a time zone name such as "UTC" or "Europe/Paris"' })
    .optional(),
  /** At least this many files match the glob. */
  min_count: z.number().int().min(1).optional(),
  /** At most this many files are left (0: none, a drained spool). */
  max_count: z.number().int().nonnegative().optional(),
};

interface FileClaimShape {
  glob?: string | undefined;
  min_count?: number | undefined;
  max_count?: number | undefined;
  time_zone?: string | undefined;
  modified_today?: boolean | undefined;
}

/** Rules between the extra keys, as [key, message] pairs. */
export function fileClaimExtraProblems(c: FileClaimShape): Array<[string, string]> {
  const problems: Array<[string, string]> = [];
  if (c.min_count !== undefined && c.glob === undefined)
    problems.push(['min_count', 'counts the files a glob matches; use glob instead of path']);
  if (c.min_count !== undefined && c.max_count !== undefined && c.min_count > c.max_count)
    problems.push(['min_count', `is above max_count (${c.max_count})`]);
  if (c.time_zone !== undefined && c.modified_today !== true)
    problems.push(['time_zone', 'only sets the day of modified_today = true; add that or remove time_zone']);
  return problems;
}

/** A claim in plain English, e.g. "a non-empty CSV under /out/export, modified in the last 6 hours". */
export const claimSentence = z
  .string()
  .trim()
  .min(1, { message: 'is empty; write what the job should leave, e.g. "a non-empty CSV under /out/export"' })
  .max(1000, { message: 'is longer than 1000 characters; say it in one sentence' });

/** A job is judged by its `claim`, its `[[jobs.NAME.evidence]]`, or both; never by nothing. */
export function jobEvidenceProblem(job: { claim?: string | undefined; evidence: readonly unknown[] }): string | null {
  return job.claim === undefined && job.evidence.length === 0
    ? 'a job needs claim = "…" (plain English) or at least one [[jobs.NAME.evidence]] claim'
    : null;
}
