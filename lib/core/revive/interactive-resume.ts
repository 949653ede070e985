import type { AdapterName } from '../adapters/agent-events.ts';
import { walkArgs } from '../adapters/argv-options.ts';
import { readClaudeCommand } from '../adapters/claude-command.ts';
import { readCodexCommand } from '../adapters/codex-command.ts';
import { splitProgram } from '../adapters/program.ts';

/**
 * Reviving an interactive session (one `deadman agent` ran in a terminal): the agent's own TUI
 * opened again on the same session, with no prompt — the person at the terminal says what comes
 * next, so no revive message is typed in for them. `codex <options> resume <id>` (the options
 * go before `resume`, as for `codex exec`) and `claude --resume <id> <options>`; the original
 * prompt and images are not repeated (the session has them).
 */

/** Codex TUI options that take a value (codex-cli 0.169 `codex --help`). */
const CODEX_VALUED = new Set([
  '-c',
  '--config',
  '--enable',
  '--disable',
  '-i',
  '--image',
  '-m',
  '--model',
  '--local-provider',
  '-s',
  '--sandbox',
  '-a',
  '--ask-for-approval',
  '-p',
  '--profile',
  '-C',
  '--cd',
  '--add-dir',
]);
const CODEX_NOT_REPEATED = new Set(['-i', '--image', '--last', '--all']);

/** An agent's interactive form: Codex without `exec`, Claude Code without `-p`/`--print`. */
export function isInteractiveCommand(adapter: AdapterName, argv: readonly string[]): boolean {
  if (adapter === 'codex') return readCodexCommand(argv) === null;
  if (adapter === 'claude') return !splitProgram(argv).args.some((arg) => arg === '-p' || arg === '--print');
  return false;
}

/** The resume of `argv`'s session `sessionId` in a terminal; null when the agent's program cannot be found in it. */
export function interactiveResumeArgv(
  adapter: AdapterName,
  argv: readonly string[],
  sessionId: string,
): string[] | null {
  if (adapter === 'claude') {
    const claude = readClaudeCommand(argv);
    return [...claude.program, '--resume', sessionId, ...claude.resumeFlags];
  }
  const split = splitProgram(argv);
  if (adapter !== 'codex' || split.agent !== 'codex') return null;
  // Positionals are the prompt, or `resume <id>` when the original command was itself a resume.
  const options = walkArgs(split.args, { valued: CODEX_VALUED }).flatMap((part) =>
    part.kind === 'option' && !CODEX_NOT_REPEATED.has(part.name) ? part.tokens : [],
  );
  return [...split.program, ...options, 'resume', sessionId];
}
