import type { ClockTime } from '../detect/reset-clock.ts';

/**
 * Normalized agent events: what adapters make of the child's output lines. Plain data only.
 */

export type AdapterName = 'codex' | 'claude' | 'generic';

export interface Usage {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
}

/** One normalized agent event, derived from one output line. */
export type AgentEvent =
  | { type: 'session'; sessionId: string }
  | { type: 'turn_started' }
  | { type: 'turn_completed' }
  | { type: 'turn_failed'; message: string }
  /** A tool call (shell command, MCP call, …) began; `toolId` is the agent's item/tool_use id. */
  | { type: 'tool_started'; toolId: string; command: string | null }
  /** `outputTail`: the end of what the tool printed, when the agent reports it (for REPEATED_FAILURE). */
  | { type: 'tool_finished'; toolId: string; exitCode: number | null; ok: boolean; outputTail?: string }
  /** Files a tool wrote, once it succeeded (Codex file_change, Claude Edit/Write/MultiEdit): the handoff lists them. */
  | { type: 'files_changed'; paths: string[] }
  /** Usage charged by this line (deltas, never cumulative totals). */
  | { type: 'usage'; usage: Usage; totalCostUsd?: number }
  /** A non-fatal error or warning the agent reported (retries, config warnings). */
  | { type: 'error'; message: string }
  /**
   * The turn cannot go on: a plan or usage limit. The reset as the agent gave it (epoch seconds,
   * or seconds from now), else null; or only as a wall-clock time ("resets 2pm (Europe/Berlin)").
   * `throttle`: the API is throttling requests, and the agent says it is not the plan's limit
   * (no reset given): a transient failure, waited out with a short bounded backoff.
   */
  | {
      type: 'usage_limit';
      resetsAtSec: number | null;
      resetsInSec: number | null;
      resetsAtClock?: ClockTime;
      throttle?: true;
      message: string;
    }
  /**
   * The account's credit or spend limit is spent (Codex `insufficient_quota`, a spend limit;
   * Claude's `billing_error`): no reset will come, only a person adding credit helps.
   */
  | { type: 'credit_exhausted'; message: string }
  /** The agent said it is compacting its context (Claude's `status` compacting, `compact_boundary`; Codex's compaction item). */
  | { type: 'compacting' };

export interface ParsedLine {
  /** True when the line is a well-formed event of the adapter's format (counts as activity). */
  recognized: boolean;
  events: AgentEvent[];
}

/** Turns output lines into events. Stateful only in memory (usage deltas, open tools); no I/O. */
export interface Adapter {
  readonly name: AdapterName;
  parseLine(line: string): ParsedLine;
}
