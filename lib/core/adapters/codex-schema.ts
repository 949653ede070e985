import { z } from 'zod';

/**
 * The events of `codex exec --json` that deadman acts on (codex-cli 0.169). Objects are not
 * strict: Codex adds fields between releases. Event types not listed here are still the
 * agent speaking (progress) but carry nothing deadman needs.
 */

const count = z.number().nonnegative().catch(0).default(0);

/** Cumulative for the whole thread, earlier resumed runs included: the adapter takes deltas. */
export const codexUsageSchema = z.object({
  input_tokens: count,
  cached_input_tokens: count,
  output_tokens: count,
});

/** One item; only the fields of the tool-like types are read. */
export const codexItemSchema = z.object({
  id: z.string(),
  type: z.string(),
  /** command_execution: `/bin/bash -lc '…'`. */
  command: z.string().optional(),
  exit_code: z.number().int().nullish(),
  aggregated_output: z.string().optional().catch(undefined),
  status: z.string().optional(),
  /** mcp_tool_call. */
  server: z.string().optional(),
  tool: z.string().optional(),
  error: z.object({ message: z.string() }).nullish(),
  /** file_change: what the patch touched. */
  changes: z
    .array(z.object({ path: z.string() }))
    .optional()
    .catch(undefined),
  /** Non-fatal warning items (`type: "error"`). */
  message: z.string().optional(),
});

export const codexEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('thread.started'), thread_id: z.string().min(1) }),
  z.object({ type: z.literal('turn.started') }),
  z.object({ type: z.literal('turn.completed'), usage: codexUsageSchema.optional() }),
  z.object({ type: z.literal('turn.failed'), error: z.object({ message: z.string() }).optional() }),
  z.object({ type: z.enum(['item.started', 'item.updated', 'item.completed']), item: codexItemSchema }),
  /** Not fatal: stream reconnects are reported this way and the turn goes on. */
  z.object({ type: z.literal('error'), message: z.string() }),
]);

export type CodexEvent = z.output<typeof codexEventSchema>;
export type CodexItem = z.output<typeof codexItemSchema>;
export type CodexUsage = z.output<typeof codexUsageSchema>;
