import { formatDuration } from '../time/duration.ts';

/**
 * OUTPUT_INACTIVITY: nothing on stdout/stderr (or, with an agent adapter, no parsed event) and
 * no visible work in the owned tree (CPU, I/O, processes coming and going) for `limitMs`.
 * The message counts from the last output and names the agent when one is known: `no codex
 * output for 30min`, `no output for 30min` for a plain command. When the agent's last word was
 * that it compacts its context (a compaction that never ended is a stall shape of its own,
 * agent-formats.md §F.1), the message says so: the incident, its report and its alert then
 * tell what the agent was doing.
 */
export interface InactivityInput {
  now: number;
  limitMs: number;
  lastOutputAt: number;
  lastTreeActivityAt: number;
  /** The agent whose output is missing, when known (`no codex output for 3s`); null for a plain command. */
  agent?: string | null;
  /** When the agent's last word was that it compacts its context; null or unset otherwise. */
  compactingAt?: number | null;
}

export function detectInactivity(input: InactivityInput): { message: string; silentForMs: number } | null {
  if (input.limitMs <= 0) return null;
  const lastProgress = Math.max(input.lastOutputAt, input.lastTreeActivityAt);
  if (input.now - lastProgress < input.limitMs) return null;
  const silentForMs = input.now - input.lastOutputAt;
  const compacting =
    input.compactingAt == null
      ? ''
      : `: the agent was compacting its context (its last event, ${formatDuration(input.now - input.compactingAt)} ago, was a compaction)`;
  return {
    message: `no ${input.agent ? `${input.agent} ` : ''}output for ${formatDuration(silentForMs)}${compacting}`,
    silentForMs,
  };
}
