/**
 * REPEATED_FAILURE: the agent ran the same command and it failed the same way at least
 * `threshold` times, with the workspace unchanged in between — it is burning turns on a loop
 * it cannot see. "The same way" is a normalized signature: the command, its exit status and
 * the tail of its output with numbers, paths, timestamps and hex ids folded, so a test run that
 * fails identically at a new time or pid still matches. A different command, a different
 * failure (a changed test result shows in the tail), a success or a changed workspace
 * fingerprint resets the count. Pure: the workspace fingerprint is read at the edge.
 */

import { isUnmeasured } from './unmeasured-workspace.ts';

export interface ToolFailure {
  command: string;
  exitCode: number | null;
  outputTail: string;
}

export interface RepeatState {
  signature: string | null;
  /** The workspace fingerprint when the streak began; null outside a git work tree. */
  workspace: string | null;
  count: number;
  last: ToolFailure | null;
}

export const NO_REPEAT: RepeatState = { signature: null, workspace: null, count: 0, last: null };

const TAIL_CHARS = 400;

export function failureSignature(failure: ToolFailure): string {
  const tail = failure.outputTail
    .slice(-TAIL_CHARS)
    .replace(/\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?/g, '<time>')
    .replace(/(?:\/[\w.@-]+)+\/?/g, '<path>')
    .replace(/\b(?:0x)?[0-9a-f]{7,}\b/gi, '<hex>')
    .replace(/\d+(?:\.\d+)?/g, '#')
    .replace(/\s+/g, ' ')
    .trim();
  return `${failure.command}\u0000${failure.exitCode ?? '?'}\u0000${tail}`;
}

/** One finished tool call: a failure extends or restarts the streak, a success ends it. */
export function noteToolResult(
  state: RepeatState,
  result: { failure: ToolFailure | null; workspace: string | null },
): RepeatState {
  if (result.failure === null) return NO_REPEAT;
  const signature = failureSignature(result.failure);
  // The same failure at an unmeasured moment is not counted: it may or may not follow an edit.
  if (signature === state.signature && isUnmeasured(result.workspace)) return state;
  if (signature === state.signature && result.workspace === state.workspace)
    return { ...state, count: state.count + 1, last: result.failure };
  return { signature, workspace: result.workspace, count: 1, last: result.failure };
}

export function detectRepeatedFailure(
  state: RepeatState,
  threshold: number,
): { message: string; guidance: string } | null {
  if (threshold <= 0 || state.count < threshold || state.last === null) return null;
  const { command, exitCode, outputTail } = state.last;
  const how = `exit ${exitCode ?? 'unknown'}`;
  const tail = outputTail.trim().split('\n').slice(-5).join('\n').slice(-600);
  return {
    message: `\`${clip(command)}\` failed the same way ${state.count} times (${how}) with no change to the workspace`,
    guidance: [
      `deadman interrupted you: the command \`${clip(command)}\` failed the same way ${state.count} times in a row (${how}) and nothing in the workspace changed in between.`,
      tail ? `Its output ended with:\n${tail}` : 'It printed nothing.',
      'Do not run it again unchanged. Read the error, change the code, the command or the approach first, and say what you changed.',
    ].join('\n\n'),
  };
}

function clip(command: string): string {
  return command.length > 200 ? `${command.slice(0, 200)}…` : command;
}
