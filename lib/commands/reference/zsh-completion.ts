import type { CommandDoc } from './command-table.ts';
import { completionEntries, GLOBAL_OPTIONS, shellQuote, type CompletionEntry } from './completion-entries.ts';

/**
 * The zsh completion script (a compsys function: needs compinit), from the same table as
 * `--help`. The command words typed so far (options and the value of --config left out) pick
 * the entry; commands and options complete with their descriptions, choices from the option's
 * choices, free values and the program after `--` as files.
 */

const HEAD = `#compdef deadman
# _deadman: zsh completion for deadman, generated from its option tables; do not edit.
# Install: deadman completion zsh > "\${fpath[1]}/_deadman" (a directory on $fpath, before compinit runs),
# or after compinit:  source <(deadman completion zsh)

_deadman() {
    local word prev=\${words[CURRENT-1]} i skip=0
    local -a typed commands choices
    local -a options=(${GLOBAL_OPTIONS.map((o) => shellQuote(`--${o.flag}:${describeForZsh(o.describe)}`)).join(' ')}) valued=(--config)
    for ((i = 2; i < CURRENT; i++)); do
        word=\${words[i]}
        if ((skip)); then skip=0; continue; fi
        case $word in
            --) _files; return ;;
            --config) skip=1 ;;
            -*) ;;
            *) typed+=("$word") ;;
        esac
    done
    local at="\${typed[*]}"`;

const TAIL = `    if (( \${#choices} )); then
        compadd -- $choices
    elif (( \${valued[(Ie)$prev]} )); then
        _files
    elif [[ $PREFIX == -* || \${#commands} == 0 ]]; then
        _describe -t options 'deadman option' options
    else
        _describe -t commands 'deadman command' commands
    fi
}

if [[ $funcstack[1] == _deadman ]]; then
    _deadman "$@"
else
    compdef _deadman deadman
fi`;

export function renderZshCompletion(table: readonly CommandDoc[]): string {
  return `${[HEAD, ...completionEntries(table).flatMap(entryLines), TAIL].join('\n')}\n`;
}

function entryLines(entry: CompletionEntry): string[] {
  const test = `[[ "$at " == ${shellQuote(`${entry.path} `)}* ]]`;
  const lines: string[] = [];
  if (entry.next.length > 0) {
    lines.push(
      `    [[ $at == ${shellQuote(entry.path)} ]] && commands=(${entry.next.map((n) => shellQuote(`${n.word}:${describeForZsh(n.describe)}`)).join(' ')})`,
    );
  }
  if (entry.options.length > 0)
    lines.push(
      `    ${test} && options+=(${entry.options.map((o) => shellQuote(`--${o.flag}:${describeForZsh(o.describe)}`)).join(' ')})`,
    );
  const valued = entry.options.filter((o) => o.takesValue);
  if (valued.length > 0) lines.push(`    ${test} && valued+=(${valued.map((o) => `--${o.flag}`).join(' ')})`);
  for (const option of valued.filter((o) => o.choices.length > 0)) {
    lines.push(
      `    ${test} && [[ $prev == --${option.flag} ]] && choices=(${option.choices.map(shellQuote).join(' ')})`,
    );
  }
  return lines;
}

/** _describe splits 'name:description' at the first unescaped colon. */
function describeForZsh(text: string): string {
  return text.replace(/:/g, '\\:');
}
