import { walkArgs } from './argv-options.ts';

/**
 * The command line of `codex exec` (codex-cli 0.169), for resuming it. Settings are not
 * carried over by `resume` (observed: a session started with danger-full-access resumed under
 * read-only), and `-s`/`-C` are refused after `resume`, so every option of the original run
 * goes again BEFORE `resume`: `codex exec --json <options> resume <id> "<message>"`.
 */

const VALUED = new Set([
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
  '-p',
  '--profile',
  '-C',
  '--cd',
  '--add-dir',
  '--output-schema',
  '--color',
  '-o',
  '--output-last-message',
]);
/** Images belong to the original prompt; attaching them to the revive message would repeat them. */
const NOT_REPEATED = new Set(['-i', '--image']);
const JSON_FLAGS = new Set(['--json', '--experimental-json']);

export interface CodexCommand {
  /** Everything up to and including `exec`: the launcher and program, kept verbatim. */
  prefix: string[];
  resumeFlags: string[];
  /** The prompt; null when it came from stdin (`-`) or is missing. */
  task: string | null;
  /** `resume <id>` (sessionId null for `resume --last`): the command goes on an earlier session; null when it starts a new one. */
  resumes: { sessionId: string | null } | null;
}

/** Reads `… exec [options] [resume <id>] [prompt]`; null when there is no `exec`. */
export function readCodexCommand(argv: readonly string[]): CodexCommand | null {
  const exec = argv.findIndex((token, i) => i > 0 && token === 'exec');
  if (exec < 0) return null;
  const resumeFlags: string[] = [];
  const positionals: string[] = [];
  for (const part of walkArgs(argv.slice(exec + 1), { valued: VALUED })) {
    if (part.kind === 'positional') positionals.push(part.value);
    else if (part.name !== '--last' && part.name !== '--all' && !NOT_REPEATED.has(part.name))
      resumeFlags.push(...part.tokens);
  }
  // An original run that was itself a resume: `resume <id> [prompt]` (or `resume --last [prompt]`).
  const resumes =
    positionals[0] === 'resume' ? { sessionId: argv.includes('--last') ? null : (positionals[1] ?? null) } : null;
  const prompts = resumes ? positionals.slice(resumes.sessionId === null ? 1 : 2) : positionals;
  if (!resumeFlags.some((flag) => JSON_FLAGS.has(flag))) resumeFlags.unshift('--json');
  const task = prompts[0];
  return {
    prefix: argv.slice(0, exec + 1),
    resumeFlags,
    task: task === undefined || task === '-' ? null : task,
    resumes,
  };
}

export function codexResumeArgv(
  prefix: readonly string[],
  resumeFlags: readonly string[],
  sessionId: string,
  message: string,
): string[] {
  return [...prefix, ...resumeFlags, 'resume', sessionId, message];
}
