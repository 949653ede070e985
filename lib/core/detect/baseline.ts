import type { ProgressState } from './process-progress.ts';

/**
 * The baseline of helpers (MCP servers, language servers) that must never be kill targets:
 * the processes first seen before the first tool call, and earlier than `slackMs` before it.
 * Agents start a tool's command and print its event after (Codex does), so a poll in that gap
 * sees the tool before its event; a process first seen within the slack belongs to the tool.
 * Taking every process seen until the first event instead put a hung tool into the baseline
 * and it was never killed. Pure: `firstSeenAt` comes from the folded progress.
 */
export function classifyHelpers(progress: ProgressState, firstToolAt: number | null, slackMs: number): Set<string> {
  const helpers = new Set<string>();
  if (firstToolAt === null) return helpers;
  for (const [key, entry] of progress.processes) if (entry.firstSeenAt < firstToolAt - slackMs) helpers.add(key);
  return helpers;
}
