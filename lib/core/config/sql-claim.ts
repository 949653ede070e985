import { z } from 'zod';
import { absolutePath, duration, TIMER_MAX } from './schema-fields.ts';

/**
 * The keys of a `kind = "sql"` claim (config.ts joins them to the common ones): one database —
 * a SQLite file or a Postgres URI —, one SELECT, and what its answer must show. The answer is
 * judged by deadman (lib/core/evidence/sql.ts), never by the query text.
 */

/** What the query's rows must show; every key given must hold. */
export const sqlExpectSchema = z
  .strictObject({
    /** "at least N rows" ("a row" is 1). */
    min_rows: z.number().int().nonnegative().optional(),
    /** "at most N rows" ("no rows left", a drained queue, is 0). */
    max_rows: z.number().int().nonnegative().optional(),
    /** "a row dated today": at least one row whose value in this column falls on today's date. */
    dated_today: z.string().min(1).max(200).optional(),
  })
  .refine((e) => e.min_rows !== undefined || e.max_rows !== undefined || e.dated_today !== undefined, {
    message: 'needs at least one of min_rows, max_rows or dated_today, e.g. expect = { min_rows = 1 }',
  })
  .refine((e) => e.min_rows === undefined || e.max_rows === undefined || e.min_rows <= e.max_rows, {
    message: 'min_rows is above max_rows: no answer could hold',
  });

export const sqlClaimFields = {
  kind: z.literal('sql'),
  /** A SQLite database file, opened read-only. */
  sqlite: absolutePath.optional(),
  /** A Postgres connection URI for psql; a password in it is never printed or stored. */
  postgres: z
    .string()
    .meta({ pattern: '^postgres(ql)?://' })
    .superRefine((uri, ctx) => {
      // A bad value may still hold a password (`host=db password=…`): its problem is told without its text.
      if (!/^postgres(ql)?:\/\//.test(uri))
        ctx.addIssue({
          code: 'custom',
          message: 'must be a URI such as "postgresql://user@host/db"',
          params: { hideValue: true },
        });
    })
    .optional(),
  query: z
    .string()
    .min(1)
    .superRefine((query, ctx) => {
      const problem = statementProblem(query);
      if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
    }),
  expect: sqlExpectSchema,
  timeout: duration({ min: '1s', max: TIMER_MAX }).default(30_000),
};

/** The rule between the keys: exactly one database. */
export function sqlClaimRules(
  claim: { sqlite?: string | undefined; postgres?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  const message = 'needs exactly one of "sqlite" (a database file) or "postgres" (a URI)';
  if (claim.sqlite === undefined && claim.postgres === undefined) ctx.addIssue({ code: 'custom', message });
  // Told at the URI, without its text: the whole claim shown would show its password.
  if (claim.sqlite !== undefined && claim.postgres !== undefined)
    ctx.addIssue({ code: 'custom', message, path: ['postgres'], params: { hideValue: true } });
}

/**
 * The query becomes a subquery (`SELECT count(*) FROM (query)`), so it must be one statement:
 * a second one after a `;` would run outside the count. A `;` inside a string literal, a quoted
 * name or a comment is fine; trailing ones are dropped (`sqlStatement`).
 */
export function statementProblem(query: string): string | null {
  const body = sqlStatement(query);
  if (body === '') return 'is empty';
  let quote: string | null = null;
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (quote === '--') {
      if (char === '\n') quote = null;
    } else if (quote !== null) {
      if (char === quote) quote = null;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === '-' && body[i + 1] === '-') quote = '--';
    else if (char === ';') return 'must be one statement (a SELECT); drop what follows the ";"';
  }
  return null;
}

/** The query without trailing semicolons and blanks, ready to be a subquery. */
export function sqlStatement(query: string): string {
  return query.replace(/[\s;]+$/, '').trim();
}
