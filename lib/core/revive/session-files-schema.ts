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
  payload: z.object({
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
  }).catch({}),
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
  message: z.object({ content: z.union([z.string(), blocks]).optional().catch(undefined) }).optional().catch(undefined),
});

export type RolloutLine = z.output<typeof rolloutLineSchema>;
export type TranscriptLine = z.output<typeof transcriptLineSchema>;
