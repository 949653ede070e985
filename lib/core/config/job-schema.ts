import { z } from 'zod';
import { checkLexicalScope } from './path-scope.ts';
import { AGE_MAX, TIMER_MAX, absolutePath, argv, duration, regex } from './schema-fields.ts';
import { containerFields, containerProblems } from './container-job.ts';
import { rerun, runDurationFields, runDurationProblems } from './job-fields.ts';
import { sqlClaimFields, sqlClaimRules } from './sql-claim.ts';
import {
  claimCommon,
  claimSentence,
  fileClaimExtraProblems,
  fileClaimExtras,
  jobEvidenceProblem,
} from './claim-fields.ts';

/**
 * The schemas of a `[jobs.NAME]` table and of the evidence claims that judge its work (also
 * the run's own `[[evidence]]`): part of deadman.toml's one definition, config.ts.
 */

export const fileClaimSchema = z
  .strictObject({
    ...claimCommon,
    kind: z.literal('file'),
    root: absolutePath,
    path: absolutePath.optional(),
    glob: absolutePath.optional(),
    non_empty: z.boolean().default(false),
    min_bytes: z.number().int().nonnegative().optional(),
    max_age: duration({ max: AGE_MAX, off: true }).optional(),
    min_lines: z.number().int().nonnegative().optional(),
    contains: regex.optional(),
    ...fileClaimExtras,
  })
  .refine((c) => (c.path === undefined) !== (c.glob === undefined), {
    message: 'needs exactly one of "path" or "glob"',
  })
  .meta({ oneOf: [{ required: ['path'] }, { required: ['glob'] }] })
  .superRefine((c, ctx) => {
    fileClaimExtraProblems(c).forEach(([key, message]) => ctx.addIssue({ code: 'custom', path: [key], message }));
    // Found here, not at run time: there it would fail the job as exit 65 after all the work.
    for (const key of ['path', 'glob'] as const) {
      const value = c[key];
      if (value === undefined) continue;
      const scope = checkLexicalScope(c.root, value);
      if (!scope.inside)
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `${scope.reason}; a claim may only look inside its root`,
        });
    }
  });

export const commandClaimSchema = z.strictObject({
  ...claimCommon,
  kind: z.literal('command'),
  command: argv,
  timeout: duration({ max: TIMER_MAX, off: true }).default(30_000),
  stdout_matches: regex.optional(),
  cwd: absolutePath.optional(),
});

export const httpClaimSchema = z.strictObject({
  ...claimCommon,
  kind: z.literal('http'),
  url: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }),
  status: z
    .string()
    .regex(/^\d{3}(-\d{3})?$/, { message: 'must be a status or range such as "200" or "200-299"' })
    .default('200-299'),
  body_matches: regex.optional(),
  timeout: duration({ max: TIMER_MAX, off: true }).default(5_000),
});

export const sqlClaimSchema = z
  .strictObject({ ...claimCommon, ...sqlClaimFields })
  .superRefine(sqlClaimRules)
  .meta({ oneOf: [{ required: ['sqlite'] }, { required: ['postgres'] }] });

export const claimSchema = z.discriminatedUnion(
  'kind',
  [fileClaimSchema, commandClaimSchema, httpClaimSchema, sqlClaimSchema],
  {
    error: 'a claim needs kind = "file", "command", "http" or "sql"',
  },
);

export const jobSchema = z
  .strictObject({
    rerun,
    user: z.string().optional(),
    cwd: absolutePath.optional(),
    timeout: duration({ max: TIMER_MAX, off: true }).default(10 * 60_000),
    ...containerFields,
    ...runDurationFields,
    claim: claimSentence.optional(),
    evidence: z.array(claimSchema).default(() => []),
  })
  .meta({ anyOf: [{ required: ['claim'] }, { required: ['evidence'] }] })
  .superRefine((job, ctx) => {
    const problem = jobEvidenceProblem(job);
    if (problem !== null) ctx.addIssue({ code: 'custom', path: ['evidence'], message: problem });
    containerProblems(job).forEach(([path, message]) => ctx.addIssue({ code: 'custom', path, message }));
    runDurationProblems(job).forEach(([key, message]) => ctx.addIssue({ code: 'custom', path: [key], message }));
  });
