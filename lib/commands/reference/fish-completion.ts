import type { CommandDoc } from './command-table.ts';

/**
 * The fish completion script, from the same table as `--help` and the bash and zsh scripts.
 * Commands complete where a command is expected, each command's options after it, and `config`
 * its actions; option values are left to fish's file completion.
 */

const HELPERS = `# The words typed so far, without options and the value of --config: "deadman --config x config check" → config check.
function __deadman_words
    set -l words (commandline -opc)
    set -e words[1]
    set -l skip 0
    for word in $words
        if test $skip = 1
            set skip 0
            continue
        end
        if test "$word" = --config
            set skip 1
            continue
        end
        string match -q -- '-*' $word; and continue
        echo $word
    end
end

# Whether the typed command words are exactly $argv ("config" → a config action comes next).
function __deadman_at
    set -l words (__deadman_words)
    test "$words" = "$argv"
end

# Whether the typed command words start with $argv (its options apply).
function __deadman_in
    set -l words (__deadman_words)
    set -l typed (count $argv)
    test (count $words) -ge $typed; or return 1
    # fish 3.6 takes no command substitution inside an index range ("Invalid index value").
    test "$words[1..$typed]" = "$argv"
end`;

export function renderFishCompletion(table: readonly CommandDoc[]): string {
  const lines = [
    '# deadman.fish: fish completion for deadman, generated from its option tables; do not edit.',
    '# Install: deadman completion fish > ~/.config/fish/completions/deadman.fish',
    '',
    HELPERS,
    '',
    `complete -c deadman -l config -r -F -d ${quote('config file (default: $DEADMAN_CONFIG, ./deadman.toml, /etc/deadman/deadman.toml)')}`,
    `complete -c deadman -s h -l help -d ${quote('show help')}`,
    `complete -c deadman -l version -d ${quote('show the version')}`,
  ];
  for (const command of table) lines.push(...commandLines(command, []));
  return `${lines.join('\n')}\n`;
}

function commandLines(command: CommandDoc, parents: string[]): string[] {
  const words = command.name.split(' ');
  const word = words[words.length - 1]!;
  const lines = [
    '',
    `# deadman ${command.name}`,
    `complete -c deadman -f -n ${quote(['__deadman_at', ...parents].join(' '))} -a ${quote(word)} -d ${quote(command.describe)}`,
  ];
  for (const option of command.options) {
    const value = option.takesValue
      ? option.choices.length > 0
        ? ` -x -a ${quote(option.choices.join(' '))}`
        : ' -r'
      : '';
    lines.push(
      `complete -c deadman -n ${quote(['__deadman_in', ...words].join(' '))} -l ${option.flag}${value} -d ${quote(option.describe)}`,
    );
  }
  if (command.values.length > 0)
    lines.push(
      `complete -c deadman -f -n ${quote(['__deadman_at', ...words].join(' '))} -a ${quote(command.values.join(' '))}`,
    );
  for (const sub of command.subcommands) lines.push(...commandLines(sub, words));
  return lines;
}

/** A fish single-quoted string: only \\ and ' are special inside. */
function quote(text: string): string {
  return `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}
