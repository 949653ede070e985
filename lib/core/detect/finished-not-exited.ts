import { formatDuration } from '../time/duration.ts';

/**
 * FINISHED_NOT_EXITED: the agent printed the result of its last turn (Codex `turn.completed`,
 * Claude `result`) and is still running `graceMs` later — a known Claude Code failure in
 * stream-json mode, where the process idles forever after its answer. Nothing more will come,
 * so the run can end with the result's verdict. A new turn (`turn_started`) clears the result.
 */
export interface FinishedInput {
  now: number;
  /** Monotonic ms of the final result, or null while no turn has ended. */
  finishedAt: number | null;
  /** The failure the result reported, or null for a success. */
  failed: string | null;
  /** 0 turns the check off. */
  graceMs: number;
}

export function detectFinishedNotExited(input: FinishedInput): { message: string; succeeded: boolean } | null {
  if (input.graceMs <= 0 || input.finishedAt === null) return null;
  const waited = input.now - input.finishedAt;
  if (waited < input.graceMs) return null;
  const verdict = input.failed === null ? 'success' : `failure (${input.failed})`;
  return {
    message: `the agent printed its final result (${verdict}) and has not exited ${formatDuration(waited)} later`,
    succeeded: input.failed === null,
  };
}
