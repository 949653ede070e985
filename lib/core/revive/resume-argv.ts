import type { Marker } from './marker-schema.ts';
import { codexResumeArgv, readCodexCommand } from '../adapters/codex-command.ts';
import { claudeResumeArgv, readClaudeCommand } from '../adapters/claude-command.ts';
import { interactiveResumeArgv } from './interactive-resume.ts';
import { CRASH_OPENING } from './revive-opening.ts';

/**
 * The command that re-prompts an interrupted session: the agent's own resume syntax built
 * from the original command line, or the `revive.command` template. Arguments are always
 * a list handed to exec, never a shell string.
 */

const CONTINUE = [
  'Continue the interrupted task from where it stopped.',
  'Tool calls that were cut off mid-way have unknown outcomes: inspect their effects (files, processes, output) before retrying any of them.',
].join(' ');

/** Session ids go into a command line: letters, digits, `-` and `_` only, not starting with `-`. */
export const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** A single argument may hold at most 128 KiB on Linux (MAX_ARG_STRLEN); keep the task well below. */
const MAX_TASK_CHARS = 32 * 1024;

/** Why this marker's session cannot be resumed (null when it can); `interactive`: in a terminal, under `deadman agent`. */
export function unresumableReason(marker: Marker, template?: readonly string[], interactive = false): string | null {
  if (marker.sessionId === null) return 'no session id was recorded before it stopped';
  if (!SESSION_ID.test(marker.sessionId))
    return `session id ${JSON.stringify(marker.sessionId.slice(0, 140))} is not a plain id (letters, digits, - and _)`;
  if (interactive)
    return interactiveResumeArgv(marker.adapter, marker.argv, marker.sessionId) === null
      ? `no ${marker.adapter} program found in the command line to resume`
      : null;
  if (template) return null;
  if (marker.adapter === 'generic') return 'a generic command has no resume syntax; set revive.command';
  if (marker.adapter === 'codex' && readCodexCommand(marker.argv) === null)
    return 'the Codex command line has no "exec" to resume';
  return null;
}

export interface ResumeOptions {
  message: string;
  /** `revive.command`: `{session_id}`, `{message}` and `{cwd}` are replaced inside each argument. */
  template?: readonly string[] | undefined;
  /** The agent's TUI in a terminal (`deadman agent`): no message, no template (that is a headless command). */
  interactive?: boolean;
}

/** The resume command line. Call only when `unresumableReason` is null; throws otherwise. */
export function buildResumeArgv(marker: Marker, options: ResumeOptions): string[] {
  const problem = unresumableReason(marker, options.template, options.interactive);
  if (problem !== null) throw new Error(`cannot resume ${marker.name}: ${problem}`);
  const sessionId = marker.sessionId!;
  if (options.interactive) return interactiveResumeArgv(marker.adapter, marker.argv, sessionId)!;
  if (options.template)
    return fillTemplate(options.template, { session_id: sessionId, message: options.message, cwd: marker.cwd });
  // The resume repeats the options read from the (authenticated) command line, never a list stored beside it.
  if (marker.adapter === 'codex') {
    const codex = readCodexCommand(marker.argv)!;
    return codexResumeArgv(codex.prefix, codex.resumeFlags, sessionId, options.message);
  }
  const claude = readClaudeCommand(marker.argv);
  return claudeResumeArgv(claude.program, claude.resumeFlags, sessionId, options.message);
}

function fillTemplate(template: readonly string[], values: Record<'session_id' | 'message' | 'cwd', string>): string[] {
  // One pass with a function: a value that itself contains "{cwd}" is not expanded again.
  return template.map((arg) =>
    arg.replace(/\{(session_id|message|cwd)\}/g, (_, key: keyof typeof values) => values[key]),
  );
}

/**
 * The revive prompt: the configured message or the default — opening with what stopped the
 * run (`opening`, revive-opening.ts) — plus the original task (a bare "continue" tends to be
 * ignored by agents). A message with `{task}` places it itself.
 */
export function reviveMessage(task: string | null, configured?: string, opening = CRASH_OPENING): string {
  const base = configured ?? `${opening} ${CONTINUE}`;
  const shown =
    task === null
      ? null
      : task.length > MAX_TASK_CHARS
        ? `${task.slice(0, MAX_TASK_CHARS)}\n[… cut; the full task is earlier in this session]`
        : task;
  if (base.includes('{task}')) return base.replaceAll('{task}', () => shown ?? '(see the start of this session)');
  return shown === null ? base : `${base}\n\nThe original task was:\n${shown}`;
}
