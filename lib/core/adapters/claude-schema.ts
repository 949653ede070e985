import { z } from 'zod';

/**
 * The lines of `claude -p --output-format stream-json --verbose` that deadman acts on
 * (Claude Code 2.1.197). Objects are not strict: new fields appear between releases, and
 * message types or system subtypes not read here are still progress.
 */

const count = z.number().nonnegative().catch(0).default(0);

/** One content block of an assistant or user message; only tool and text fields are read. */
export const claudeBlockSchema = z.object({
  type: z.string(),
  /** tool_use */
  id: z.string().optional(),
  name: z.string().optional(),
  /** Bash: command; Edit, Write, MultiEdit: file_path; NotebookEdit: notebook_path. */
  input: z
    .object({
      command: z.unknown().optional(),
      file_path: z.unknown().optional(),
      notebook_path: z.unknown().optional(),
    })
    .nullish()
    .catch(null),
  /** tool_result: content is a string or a list of text blocks. */
  tool_use_id: z.string().optional(),
  content: z.unknown().optional(),
  is_error: z.boolean().nullish(),
  /** text */
  text: z.string().optional(),
});

const blocks = z.array(claudeBlockSchema);

/** This run only (not cumulative), Anthropic style: input excludes cache reads and writes. */
export const claudeUsageSchema = z.object({
  input_tokens: count,
  cache_creation_input_tokens: count,
  cache_read_input_tokens: count,
  output_tokens: count,
});

export const claudeLineSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('system'),
    subtype: z.string().optional(),
    session_id: z.string().optional(),
    attempt: z.number().optional(),
    max_retries: z.number().optional(),
    error_status: z.number().nullish(),
    error: z.unknown().optional(),
    /** subtype `status`: `compacting` while the agent compacts its context. */
    status: z.string().nullish().catch(null),
  }),
  z.object({
    type: z.literal('assistant'),
    message: z.object({ content: blocks.catch([]) }),
    /** Set on synthetic API-error messages (`billing_error`: the credit is spent). */
    error: z.unknown().optional(),
  }),
  z.object({
    type: z.literal('user'),
    message: z.object({ content: z.union([z.string(), blocks]).catch([]) }),
  }),
  /** `allowed`/`allowed_warning` are informational; `rejected` (some reports: `denied`) stops the turn. */
  z.object({
    type: z.literal('rate_limit_event'),
    /** `rateLimitType`: five_hour, seven_day, …; `overageDisabledReason`: why no overage takes over (org_level_disabled, member_zero_credit_limit, …). */
    rate_limit_info: z.object({
      status: z.string(),
      resetsAt: z.number().optional().catch(undefined),
      rateLimitType: z.string().optional().catch(undefined),
      overageDisabledReason: z.string().nullish().catch(undefined),
    }),
  }),
  z.object({
    type: z.literal('result'),
    subtype: z.string(),
    is_error: z.boolean(),
    result: z.string().optional(),
    errors: z.array(z.unknown()).optional(),
    usage: claudeUsageSchema.optional().catch(undefined),
    total_cost_usd: z.number().nonnegative().optional().catch(undefined),
  }),
]);

export type ClaudeLine = z.output<typeof claudeLineSchema>;
export type ClaudeBlock = z.output<typeof claudeBlockSchema>;
