import type { Attempt } from '../detect/no-progress.ts';

/**
 * The handoff of CHECKPOINT_AND_RESPAWN: what a fresh session needs to carry on a task whose
 * session ran over its budget — the task, what was done according to the event log (files
 * changed, commands run and their results, the last failure), open questions and the next
 * step. Pure markdown; the edge writes it under the state directory and hands it to the new
 * session.
 *
 * Handoffs do not nest: the fresh session's prompt is the ORIGINAL task (the first pass's,
 * never the previous prompt) followed by the latest handoff's state alone, so a task respawned
 * ten times is prompted the same size as one respawned once. The state part is bounded by
 * MAX_HANDOFF_STATE_CHARS: past it fewer commands are listed (20, 10, 5, none) and the last
 * failure's output is cut, then the text itself.
 */
export interface HandoffInput {
  name: string;
  task: string | null;
  reason: string;
  /** The last shell commands (and turns) of the old session, oldest first. */
  attempts: readonly Attempt[];
  /** Files its tools wrote (Codex file_change, Claude Edit/Write/MultiEdit), most recently written last. */
  filesChanged: readonly string[];
  /** The signal's guidance, with the diagnostician's (bounded, redacted) when it gave some. */
  guidance?: string | null;
}

export const MAX_HANDOFF_STATE_CHARS = 8 * 1024;
const SHOWN = [20, 10, 5, 0];
const FAILURE_LINES = 10;
const CUT = '\n[… handoff cut at 8 KiB]\n';

/** The handoff file: a title, the task, then the bounded state. */
export function renderHandoff(input: HandoffInput): string {
  return [
    `# Handoff: ${input.name}`,
    '',
    `deadman ended the previous session: ${input.reason}. This is a fresh session; continue the task from here.`,
    '',
    '## Task',
    input.task ?? '(the task was not on the command line)',
    '',
    handoffState(input),
  ].join('\n');
}

/** The fresh session's prompt: the original task once, then the latest state (never an earlier prompt or handoff). */
export function respawnPrompt(task: string, input: HandoffInput, handoffPath: string): string {
  return `${task}\n\nA previous session on this task was ended by deadman (${oneLine(input.reason)}). Its handoff (${handoffPath}), without the task above:\n\n${handoffState(input)}`;
}

/** What was done, the last failure, open questions and the next step: at most MAX_HANDOFF_STATE_CHARS. */
export function handoffState(input: HandoffInput): string {
  let text = '';
  for (const shown of SHOWN) {
    text = stateWith(input, shown);
    if (text.length <= MAX_HANDOFF_STATE_CHARS) return text;
  }
  return `${text.slice(0, MAX_HANDOFF_STATE_CHARS - CUT.length)}${CUT}`;
}

function stateWith(input: HandoffInput, shown: number): string {
  const commands = input.attempts.filter((a) => !a.turn);
  const lastFailure = [...commands].reverse().find((a) => !a.ok);
  const files = input.filesChanged.slice(-Math.max(shown, 1)).map((path) => `- \`${oneLine(path)}\``);
  const ran = (shown ? commands.slice(-shown) : []).map(
    (a) => `- \`${oneLine(a.command)}\` → ${a.ok ? 'ok' : `failed (exit ${a.exitCode ?? 'unknown'})`}`,
  );
  const omitted = commands.length - ran.length;
  return [
    '## What was done (from the event log)',
    'Files changed:',
    ...(files.length ? files : ["- none by the agent's edit tools (shell commands may still have changed some)"]),
    '',
    'Commands run:',
    ...(ran.length || omitted ? ran : ['- no shell commands were recorded']),
    ...(omitted > 0 ? [`- (${omitted} earlier command(s) not shown)`] : []),
    `- turns completed: ${input.attempts.filter((a) => a.turn).length}`,
    '',
    '## Last failure',
    lastFailure
      ? `\`${oneLine(lastFailure.command)}\` (exit ${lastFailure.exitCode ?? 'unknown'}):\n\n\`\`\`\n${failureTail(lastFailure.outputTail)}\n\`\`\``
      : 'none recorded',
    '',
    ...(input.guidance ? ['## Guidance', input.guidance, ''] : []),
    '## Open questions',
    '- Did the commands above change files besides those listed? Check `git status` and `git diff` before going on.',
    '',
    '## Next step',
    lastFailure
      ? `Fix what made \`${oneLine(lastFailure.command)}\` fail, without repeating work already done.`
      : 'Continue the task without repeating the work above.',
    '',
  ].join('\n');
}

function failureTail(output: string): string {
  return output
    .trim()
    .split('\n')
    .slice(-FAILURE_LINES)
    .map((line) => (line.length > 300 ? `${line.slice(0, 300)}…` : line))
    .join('\n');
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}
