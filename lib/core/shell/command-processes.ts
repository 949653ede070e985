import { parseScript, type SimpleCommand, type Word } from './shell-words.ts';

/**
 * The argv of every process a command line can show up as while it runs, as a shell runs it:
 * each simple command of a script (bash runs each one, and execs a lone or final one away, so
 * the process of `cd x && make test` is `make test`), through the wrappers that exec what they
 * are given (`env A=B …`, `exec`, `nohup`, `nice`, `setsid`, `stdbuf`, `command`), `eval`, and a
 * shell's `-c` script (`/bin/bash -lc '…'`: the bash itself and what its script runs; Claude's
 * snapshot shell `source … && eval '<cmd>' < /dev/null && pwd -P >| …` comes apart the same way).
 * Builtins and keywords never become a process of their own, so they are no argv: two scripts
 * that both `cd` somewhere have no process in common. Pure.
 */

const SHELLS = new Set(['bash', 'sh', 'dash', 'zsh', 'ksh']);
/** Run inside the shell, never as a process of their own (bash, dash and zsh alike). */
const BUILTINS = new Set([
  'cd',
  'pwd',
  'source',
  '.',
  'export',
  'unset',
  'set',
  'shopt',
  'alias',
  'unalias',
  'umask',
  'ulimit',
  ':',
  'exit',
  'return',
  'trap',
  'wait',
  'local',
  'declare',
  'typeset',
  'readonly',
  'echo',
  'printf',
  'test',
  '[',
  'true',
  'false',
  'read',
  'kill',
  'let',
  'shift',
  'hash',
  'type',
  'jobs',
  'fg',
  'bg',
  'disown',
  'builtin',
  'getopts',
  'pushd',
  'popd',
  'dirs',
  'mapfile',
  'readarray',
  'history',
]);
/** Words that open or close a compound command: what follows `if`, `then`, `do`, `!` … is still a command. */
const LEADING_KEYWORDS = new Set([
  'if',
  'then',
  'elif',
  'else',
  'do',
  'while',
  'until',
  '!',
  '{',
  '}',
  'fi',
  'done',
  'esac',
  'time',
]);
/** Compound commands whose words are no command (`for x in a b`): only the commands inside them run. */
const NOT_A_COMMAND = new Set(['for', 'case', 'select', 'function', '[[', '((', 'coproc', 'in']);
/** Wrappers that exec the command they are given, and their options that take a value. */
const EXEC_WRAPPERS = new Map<string, readonly string[]>([
  ['env', ['-u', '--unset', '-C', '--chdir', '-S', '--split-string']],
  ['exec', ['-a']],
  ['command', []],
  ['nohup', []],
  ['nice', ['-n', '--adjustment']],
  ['setsid', []],
  ['stdbuf', ['-i', '-o', '-e']],
]);
/** How deep shells inside shells are followed. */
const MAX_DEPTH = 8;

/** The argvs of the processes a command line (as an agent reports it: a shell script) may run as. */
export function commandProcesses(command: string): SimpleCommand[] {
  return scriptProcesses(command, 0);
}

/** The argvs a process's own argv may stand for: itself (a process named `echo` is no builtin), and for a shell, what its script runs. */
export function argvProcesses(argv: readonly string[]): SimpleCommand[] {
  return [[...argv], ...simpleProcesses(argv, 0)];
}

function scriptProcesses(script: string, depth: number): SimpleCommand[] {
  if (depth > MAX_DEPTH) return [];
  return (parseScript(script) ?? []).flatMap((words) => simpleProcesses(words, depth + 1));
}

function simpleProcesses(command: readonly Word[], depth: number): SimpleCommand[] {
  let start = 0;
  while (start < command.length && (isAssignment(command[start]) || LEADING_KEYWORDS.has(command[start] ?? '')))
    start++;
  const words = command.slice(start);
  const program = words[0];
  if (program === undefined || program === null || NOT_A_COMMAND.has(program) || BUILTINS.has(program)) return [];
  if (program === 'eval') return words.includes(null) ? [] : scriptProcesses(words.slice(1).join(' '), depth);
  const name = baseName(program);
  const wrapped = EXEC_WRAPPERS.get(name);
  if (wrapped) {
    const inner = afterOptions(words, wrapped, name === 'env');
    const rest = simpleProcesses(words.slice(inner), depth);
    // `exec` and `command` are builtins: only what they run is a process.
    return name === 'exec' || name === 'command' ? rest : [words, ...rest];
  }
  const script = SHELLS.has(name) ? shellScript(words) : undefined;
  return script === undefined ? [words] : [words, ...(script === null ? [] : scriptProcesses(script, depth))];
}

/** The index of the first word after a wrapper's options (and, for env, its assignments). */
function afterOptions(words: readonly Word[], valued: readonly string[], assignments: boolean): number {
  let i = 1;
  while (i < words.length) {
    const word = words[i]!;
    if (word === '--') return i + 1;
    if (word === null || !(word.startsWith('-') || (assignments && isAssignment(word))) || word === '-') break;
    i += valued.includes(word) ? 2 : 1;
  }
  return i;
}

/**
 * The script of `sh -c SCRIPT …` (options before it, single-letter ones clustered: `-lc`, `-ec`,
 * `-o pipefail -c`), null when it cannot be known, undefined when the shell runs no `-c` script.
 */
function shellScript(words: readonly Word[]): string | null | undefined {
  let takesScript = false;
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (word === null) return takesScript ? null : undefined;
    if (word === '--') return takesScript ? (words[i + 1] ?? null) : undefined;
    if (!/^[-+]/.test(word)) return takesScript ? word : undefined;
    if (word === '-o' || word === '+o' || word === '-O' || word === '+O') i++;
    else if (/^-[a-zA-Z]+$/.test(word) && word.includes('c')) takesScript = true;
  }
  return undefined;
}

function isAssignment(word: Word | undefined): boolean {
  return typeof word === 'string' && /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(word);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
