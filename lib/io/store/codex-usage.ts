import type { Usage } from '../../core/adapters/agent-events.ts';
import type { Store } from './store.ts';

/**
 * The cumulative token total of a Codex session's last recorded `turn.completed` (Codex counts
 * the whole thread, earlier processes included), so a resumed process is charged only what it
 * adds. Null when no earlier run of the session recorded one.
 */
export function lastCodexTotal(store: Store, sessionId: string): Usage | null {
  const row = store.get<{ input: unknown; cached: unknown; output: unknown }>(
    `SELECT json_extract(e.raw, '$.usage.input_tokens') AS input, json_extract(e.raw, '$.usage.cached_input_tokens') AS cached,
            json_extract(e.raw, '$.usage.output_tokens') AS output
       FROM events e JOIN runs r ON r.id = e.run_id
      WHERE r.session_id = ? AND r.adapter = 'codex' AND e.kind LIKE 'turn_completed%' AND json_valid(e.raw)
      ORDER BY e.id DESC LIMIT 1`,
    store.redacted(sessionId),
  );
  if (!row) return null;
  const count = (value: unknown) => (typeof value === 'number' && value >= 0 ? value : 0);
  return { inputTokens: count(row.input), cachedInputTokens: count(row.cached), outputTokens: count(row.output) };
}
