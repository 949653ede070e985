/**
 * yargs' own failure messages ("Did you mean check?", "Invalid values:", "Not enough non-option
 * arguments") in deadman's words: one line naming the command, what is wrong and where the help
 * is. Pure: the CLI passes yargs' message and what it knows of the command line.
 */

export interface FailedCommand {
  /** `notify`, `config`; '' before any command. */
  command: string;
  /** The command's usage after its name: `<event>`, `<action>`, `[jobs..]`. */
  usage: string;
  /** The first word after the command, when one was typed (`chek` of `config chek`). */
  typed: string | undefined;
}

export function usageLine(message: string, at: FailedCommand): string {
  const help = at.command ? `(see deadman ${at.command} --help)` : '(see deadman --help)';
  const who = at.command ? `deadman ${at.command}` : 'deadman';
  return `${sayProblem(message.trim(), at, who) ?? oneLine(message)} ${help}`;
}

function sayProblem(message: string, at: FailedCommand, who: string): string | null {
  let m = /^Did you mean (\S+)\?$/.exec(message);
  if (m)
    return `unknown ${at.command ? 'action' : 'command'}${at.typed ? ` "${at.typed}"` : ''} for ${who}; did you mean "${m[1]}"?`;
  if (/^Not enough non-option arguments/.test(message)) {
    const needed = at.usage.split(' ').filter((part) => part.startsWith('<'));
    return `missing ${needed.length > 0 ? needed.join(' ') : 'an argument'} for ${who}`;
  }
  m = /^Invalid values:\s*Argument: ([\w-]+), Given: (.*), Choices: (.*)$/s.exec(message);
  if (m) {
    const [, name, given, choices] = m;
    const positional = new RegExp(`[<[]${name}(\\.\\.)?[>\\]]`).test(at.usage);
    return `${positional ? `<${name}>` : `--${name}`} ${given} is not one of ${choices!.replaceAll('"', '')}`;
  }
  m = /^Arguments (\S+) and (\S+) are mutually exclusive$/.exec(message);
  if (m) return `--${m[1]} and --${m[2]} do not go together`;
  m = /^Missing required arguments?: (.*)$/.exec(message);
  if (m)
    return `missing ${m[1]!
      .split(', ')
      .map((name) => `--${name}`)
      .join(' and ')} for ${who}`;
  m = /^Implications failed:\s*([\w-]+) -> ([\w-]+)$/s.exec(message);
  if (m) return `--${m[1]} needs --${m[2]}`;
  return null;
}

function oneLine(text: string): string {
  return text
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean)
    .join('; ');
}

/** node:util parseArgs' messages (`deadman run`'s parser) in the same words. */
export function runArgsLine(message: string): string {
  const m = /^Option '(-{1,2}[\w-]+)(?: <value>)?' argument (missing|is ambiguous)/.exec(message);
  const said = !m
    ? oneLine(message).split('. ')[0]!
    : m[2] === 'missing'
      ? `${m[1]} needs a value`
      : `${m[1]} needs a value, and the next word is an option; a value that starts with a dash goes as ${m[1]}=-…`;
  return `${said} (see deadman run --help)`;
}
