import type { Attempt } from '../detect/no-progress.ts';

/**
 * The handoff of CHECKPOINT_AND_RESPAWN: what a fresh session needs to carry on a task whose
 * session ran over its budget — the task, what was done according to the event log (files
 * changed, commands run and their results, the last failure), open questions and the next
 * step. Pure markdown; the edge writes it under the state directory and hands it to the new
 * session.
 */
export interface HandoffInput {
  name: string;
  task: string | null;
  reason: string;
  /** The last shell commands (and turns) of the old session, oldest first. */
  attempts: readonly Attempt[];
  /** Files its tools wrote (Codex file_change, Claude Edit/Write/MultiEdit), most recently written last. */
  filesChanged: readonly string[];
}

const SHOWN = 20;

export function renderHandoff(input: HandoffInput): string {
  const commands = input.attempts.filter((a) => !a.turn).slice(-SHOWN);
  const lastFailure = [...commands].reverse().find((a) => !a.ok);
  const files = input.filesChanged.slice(-SHOWN).map((path) => `- \`${oneLine(path)}\``);
  const ran = commands.map((a) => `- \`${oneLine(a.command)}\` → ${a.ok ? 'ok' : `failed (exit ${a.exitCode ?? 'unknown'})`}`);
  return [
    `# Handoff: ${input.name}`,
    '',
    `deadman ended the previous session: ${input.reason}. This is a fresh session; continue the task from here.`,
    '',
    '## Task',
    input.task ?? '(the task was not on the command line)',
    '',
    '## What was done (from the event log)',
    'Files changed:',
    ...(files.length ? files : ['- none by the agent\'s edit tools (shell commands may still have changed some)']),
    '',
    'Commands run:',
    ...(ran.length ? ran : ['- no shell commands were recorded']),
    `- turns completed: ${input.attempts.filter((a) => a.turn).length}`,
    '',
    '## Last failure',
    lastFailure ? `\`${oneLine(lastFailure.command)}\` (exit ${lastFailure.exitCode ?? 'unknown'}):\n\n\`\`\`\n${lastFailure.outputTail.trim().split('\n').slice(-10).join('\n')}\n\`\`\`` : 'none recorded',
    '',
    '## Open questions',
    '- Did the commands above change files besides those listed? Check `git status` and `git diff` before going on.',
    '',
    '## Next step',
    lastFailure ? `Fix what made \`${oneLine(lastFailure.command)}\` fail, without repeating work already done.` : 'Continue the task without repeating the work above.',
    '',
  ].join('\n');
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}
