import type { CommandDoc, OptionDoc } from './command-table.ts';

/**
 * The command table flattened for the bash and zsh completions: each command path with the
 * words that may follow it and its options. The root (path '') offers the top-level commands.
 */

export interface CompletionEntry {
  /** `config check`; '' for deadman itself. */
  path: string;
  /** The commands (or a positional argument's values) that may come next, with their descriptions. */
  next: Array<{ word: string; describe: string }>;
  options: OptionDoc[];
}

/** Options every command accepts (yargs adds them to each). */
export const GLOBAL_OPTIONS: readonly OptionDoc[] = [
  {
    flag: 'config',
    describe: 'config file (default: $DEADMAN_CONFIG, ./deadman.toml, /etc/deadman/deadman.toml)',
    takesValue: true,
    choices: [],
  },
  { flag: 'help', describe: 'show help', takesValue: false, choices: [] },
  { flag: 'version', describe: 'show the version', takesValue: false, choices: [] },
];

export function completionEntries(table: readonly CommandDoc[]): CompletionEntry[] {
  const root: CompletionEntry = { path: '', next: table.map(nextWord), options: [] };
  return [root, ...table.flatMap(entriesOf)];
}

function entriesOf(command: CommandDoc): CompletionEntry[] {
  const values = command.values.map((word) => ({ word, describe: command.describe }));
  return [
    { path: command.name, next: [...command.subcommands.map(nextWord), ...values], options: command.options },
    ...command.subcommands.flatMap(entriesOf),
  ];
}

function nextWord(command: CommandDoc): { word: string; describe: string } {
  return { word: command.name.split(' ').at(-1)!, describe: command.describe };
}

/** A POSIX shell single-quoted string (bash, zsh). */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
