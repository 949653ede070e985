import { walkArgs } from './argv-options.ts';
import { splitProgram } from './program.ts';

/**
 * The command line of `claude -p` (Claude Code 2.1.197), for resuming it:
 * `claude -p "<message>" --resume <id> --output-format stream-json --verbose <options>`.
 * Whether per-run options persist in a resumed session is not documented, so every option
 * of the original run is passed again, except those that choose the session or the output.
 */

const VALUED = new Set([
  '--output-format',
  '--input-format',
  '--model',
  '--fallback-model',
  '--permission-mode',
  '--max-turns',
  '--max-budget-usd',
  '--append-system-prompt',
  '--system-prompt',
  '--system-prompt-file',
  '--append-system-prompt-file',
  '--settings',
  '--setting-sources',
  '--session-id',
  '--agents',
  '--agent',
  '--permission-prompt-tool',
  '--json-schema',
  '--effort',
  '--debug-file',
]);
const VARIADIC = new Set([
  '--allowedTools',
  '--allowed-tools',
  '--disallowedTools',
  '--disallowed-tools',
  '--add-dir',
  '--mcp-config',
  '--tools',
  '--betas',
  '--plugin-dir',
  '--file',
]);
const OPTIONAL_VALUE = new Set(['-r', '--resume', '--debug', '-d']);
/** Chosen anew by the resume command itself. */
const NOT_REPEATED = new Set([
  '-p',
  '--print',
  '--output-format',
  '--input-format',
  '--verbose',
  '--session-id',
  '-r',
  '--resume',
  '-c',
  '--continue',
  '--fork-session',
]);

export interface ClaudeCommand {
  /** The launcher and program, kept verbatim (`claude`, `node …/cli.js`). */
  program: string[];
  resumeFlags: string[];
  task: string | null;
}

export function readClaudeCommand(argv: readonly string[]): ClaudeCommand {
  const split = splitProgram(argv);
  const program = split.agent ? split.program : argv.slice(0, 1);
  const resumeFlags: string[] = [];
  let task: string | null = null;
  for (const part of walkArgs(argv.slice(program.length), {
    valued: VALUED,
    variadic: VARIADIC,
    optionalValue: OPTIONAL_VALUE,
  })) {
    if (part.kind === 'positional') task ??= part.value;
    else if (!NOT_REPEATED.has(part.name)) resumeFlags.push(...part.tokens);
  }
  return { program, resumeFlags, task };
}

export function claudeResumeArgv(
  program: readonly string[],
  resumeFlags: readonly string[],
  sessionId: string,
  message: string,
): string[] {
  return [
    ...program,
    '-p',
    message,
    '--resume',
    sessionId,
    '--output-format',
    'stream-json',
    '--verbose',
    ...resumeFlags,
  ];
}
