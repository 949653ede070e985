import { closest } from './did-you-mean.ts';

/**
 * Checks a command line against the options of its command before anything runs, so a typo
 * never acts first and fails later (`deadman revive --dry-rn` must not re-prompt a session).
 * Pure: the caller passes the words and the command's option table; both parsers (yargs for
 * most commands, node:util for `deadman run`) use it, so the messages are the same.
 */

/** An option's names without dashes (`dry-run`, `h`) → whether it takes a value. */
export type OptionTable = ReadonlyMap<string, boolean>;

export interface CommandLineScan {
  /** The first option the command does not know, as written (`--dry-rn`, `-x`). */
  unknown: string | null;
  /** Words that are neither options nor option values, in order. */
  positionals: string[];
}

/** Reads the words before `--`; a value-taking option consumes the next word unless that is `--`. */
export function scanCommandLine(words: readonly string[], options: OptionTable): CommandLineScan {
  const positionals: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === '--') break;
    if (word.startsWith('--')) {
      const [name, inlineValue] = splitOnce(word.slice(2), '=');
      const negated = name.startsWith('no-') && options.get(name.slice(3)) === false;
      if (!options.has(name) && !negated) return { unknown: `--${name}`, positionals };
      // `--on-failure -- prog`: an option right before `--` has no value (yargs reads it as ""), `--` still ends the options.
      if (options.get(name) === true && inlineValue === undefined && words[i + 1] !== '--') i += 1;
    } else if (word.startsWith('-') && word.length > 1) {
      for (let c = 1; c < word.length; c++) {
        const letter = word[c]!;
        if (!options.has(letter)) return { unknown: `-${letter}`, positionals };
        if (options.get(letter) === true) {
          if (c === word.length - 1) i += 1;
          break;
        }
      }
    } else {
      positionals.push(word);
    }
  }
  return { unknown: null, positionals };
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at === -1 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

export interface CommandShape {
  /** `status`, `config check`. */
  command: string;
  options: OptionTable;
  /** The command supervises or describes a program given after `--` (run, unit, install). */
  takesProgram: boolean;
}

/** One line for an option the command does not know: did-you-mean, else what to do. */
export function unknownOptionMessage(flag: string, shape: CommandShape): string {
  const long = [...shape.options.keys()].filter((name) => name.length > 1 && name !== 'help' && name !== 'version');
  // A single letter is near every short word: no guess for `-x`.
  const hint = flag.startsWith('--') ? closest(flag.slice(2), long) : undefined;
  const head = `unknown option ${flag} for deadman ${shape.command}`;
  if (hint) return `${head}; did you mean --${hint}?`;
  if (shape.takesProgram)
    return `${head}; if it is the program's, put the program after --: deadman ${shape.command} [options] -- <program> ${flag} …`;
  return `${head}; its options are ${long.map((name) => `--${name}`).join(', ')} (see deadman ${shape.command} --help)`;
}

/** One line for a word where the command takes none: most often a program missing its `--`. */
export function strayWordMessage(word: string, shape: CommandShape): string {
  if (shape.takesProgram)
    return `"${word}" is not an option of deadman ${shape.command}; put the program after --: deadman ${shape.command} [options] -- ${word} …`;
  return `unexpected argument "${word}" for deadman ${shape.command} (see deadman ${shape.command} --help)`;
}

/** One line for a first word that is no command; a program name gets the `deadman run --` form. */
export function unknownCommandMessage(word: string, commands: readonly string[]): string {
  const hint = closest(word, commands);
  if (hint) return `unknown command "${word}"; did you mean "${hint}"?`;
  return `unknown command "${word}"; to supervise a program: deadman run [options] -- ${word} … (commands: ${commands.join(', ')})`;
}

/** The first problem of a command line, or null: an unknown option, else a stray word. */
export function commandLineProblem(
  words: readonly string[],
  shape: CommandShape,
  strayWords?: readonly string[],
): string | null {
  const scan = scanCommandLine(words, shape.options);
  const strays = strayWords ?? scan.positionals;
  // With a program missing its `--`, the program's own options are unknown to deadman: name the cause.
  if (shape.takesProgram && strays.length > 0 && firstIndex(words, strays[0]!) < firstIndex(words, scan.unknown)) {
    return strayWordMessage(strays[0]!, shape);
  }
  if (scan.unknown !== null) return unknownOptionMessage(scan.unknown, shape);
  return strays.length > 0 ? strayWordMessage(strays[0]!, shape) : null;
}

function firstIndex(words: readonly string[], word: string | null): number {
  const at = word === null ? -1 : words.findIndex((w) => w === word || w.startsWith(`${word}=`));
  return at === -1 ? Number.POSITIVE_INFINITY : at;
}
