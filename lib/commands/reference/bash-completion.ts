import type { CommandDoc } from './command-table.ts';
import { completionEntries, GLOBAL_OPTIONS, shellQuote, type CompletionEntry } from './completion-entries.ts';

/**
 * The bash completion script, from the same table as `--help` and the fish completion. The
 * command words typed so far (options and the value of --config left out) pick the entry;
 * after `--` (the supervised program) and after an option that takes a free value, bash's
 * own file completion answers (`complete -o default`).
 */

const HEAD = `# deadman.bash: bash completion for deadman, generated from its option tables; do not edit.
# Install: deadman completion bash > ~/.local/share/bash-completion/completions/deadman
# (or add  source <(deadman completion bash)  to ~/.bashrc).

# Whether the command words typed so far start with $1 (its options apply).
_deadman_in() {
    [[ "\${_deadman_typed[*]} " == "$1 "* ]]
}

_deadman() {
    local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} word i skip=0
    local -a _deadman_typed=()
    COMPREPLY=()
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=\${COMP_WORDS[i]}
        if ((skip)); then skip=0; continue; fi
        case $word in
            --) return 0 ;;
            --config) skip=1 ;;
            -*) ;;
            *) _deadman_typed+=("$word") ;;
        esac
    done
    local commands='' options='${GLOBAL_OPTIONS.map((o) => `--${o.flag}`).join(' ')}' valued=' --config ' choices=''`;

const TAIL = `    if [[ -n $choices ]]; then
        COMPREPLY=($(compgen -W "$choices" -- "$cur"))
    elif [[ $valued == *" $prev "* ]]; then
        COMPREPLY=()
    elif [[ $cur == -* || -z $commands ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
    else
        COMPREPLY=($(compgen -W "$commands" -- "$cur"))
    fi
}
complete -o default -F _deadman deadman`;

export function renderBashCompletion(table: readonly CommandDoc[]): string {
  return `${[HEAD, ...completionEntries(table).flatMap(entryLines), TAIL].join('\n')}\n`;
}

function entryLines(entry: CompletionEntry): string[] {
  const test = `_deadman_in ${shellQuote(entry.path)}`;
  const lines: string[] = [];
  if (entry.next.length > 0)
    lines.push(
      `    [[ "\${_deadman_typed[*]}" == ${shellQuote(entry.path)} ]] && commands=${shellQuote(entry.next.map((n) => n.word).join(' '))}`,
    );
  if (entry.options.length > 0)
    lines.push(`    ${test} && options+=${shellQuote(entry.options.map((o) => ` --${o.flag}`).join(''))}`);
  const valued = entry.options.filter((o) => o.takesValue);
  if (valued.length > 0) lines.push(`    ${test} && valued+=${shellQuote(valued.map((o) => `--${o.flag} `).join(''))}`);
  for (const option of valued.filter((o) => o.choices.length > 0)) {
    lines.push(`    ${test} && [[ $prev == --${option.flag} ]] && choices=${shellQuote(option.choices.join(' '))}`);
  }
  return lines;
}
