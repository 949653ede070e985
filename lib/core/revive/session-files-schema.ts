import { z } from 'zod';

/**
 * The lines of the agents' own session files that deadman reads. Every field is tolerant
 * (`catch`): these files belong to the agents and change between releases; a field that
 * does not fit is treated as absent rather than losing the line.
 */

const text = z.string().optional().catch(undefined);
const blocks = z.array(z.object({ type: text, text, id: text, tool_use_id: text }).catch({})).catch([]);

/** Codex `$CODEX_HOME/sessions/**\/rollout-*.jsonl` (0.169: `{timestamp, ordinal, type, payload}`). */
export const rolloutLineSchema = z.object({
  timestamp: text,
  type: z.string(),
  payload: z
    .object({
      /** session_meta */
      id: text,
      cwd: text,
      /** "exec", "cli", … for a root thread; an object for a sub-agent. */
      source: z.unknown().optional(),
      thread_source: text,
      /** turn_context */
      sandbox_policy: z.object({ type: text }).optional().catch(undefined),
      model: text,
      /** event_msg */
      type: text,
      reason: text,
      item: z.object({ type: text, content: blocks }).optional().catch(undefined),
    })
    .catch({}),
});

/** Claude `<config dir>/projects/<escaped cwd>/<session id>.jsonl`. */
export const transcriptLineSchema = z.object({
  timestamp: text,
  type: z.string(),
  operation: text,
  sessionId: text,
  cwd: text,
  isSidechain: z.boolean().optional().catch(undefined),
  permissionMode: text,
  /** On an assistant line for an API error (its stop_reason says nothing about the turn). */
  isApiErrorMessage: z.boolean().optional().catch(undefined),
  message: z
    .object({
      content: z.union([z.string(), blocks]).optional().catch(undefined),
      /** On assistant lines: "end_turn" when the model finished its turn, "tool_use" when it waits on a tool. */
      stop_reason: text,
    })
    .optional()
    .catch(undefined),
});

export type RolloutLine = z.output<typeof rolloutLineSchema>;
