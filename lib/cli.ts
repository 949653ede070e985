import yargs, { type Arguments, type Argv, type CommandModule } from 'yargs';
import { readFileSync } from 'node:fs';
import { usageError } from './exit-codes.ts';
import { commandLineProblem, unknownCommandMessage } from './core/config/command-line.ts';
import { usageLine, type FailedCommand } from './core/config/usage-words.ts';
import { createLogger, exitQuietlyOnEpipe, logFailure } from './io/log/log.ts';
import { packageFile } from './io/files/package-files.ts';
import { commands } from './commands/index.ts';
import { referenceCommand } from './commands/reference/reference.ts';
import { withExamples } from './commands/examples.ts';

/**
 * yargs wiring only: registers the commands, maps outcomes to exit codes. Importable by
 * tests; returns the exit code instead of exiting.
 */
export async function runCli(argv: string[]): Promise<number> {
  const logger = createLogger();
  const words = reflexes(argv);
  exitQuietlyOnEpipe(process.stdout);
  let checked = false;
  // The command yargs reached before it failed (`config check`); none when it failed finding one.
  let reached: string[] = [];
  // Every usage failure throws, so that no handler runs after one (yargs goes on otherwise).
  const parser = buildParser(yargs(words))
    .middleware(
      ((args: Arguments, y: YargsInternals) => {
        // The innermost command is checked first; its parent (`config` of `config check`) then sees the same words.
        reached = y.getInternalMethods().getContext().commands;
        checked ||= rejectUnknownWords(words, args, y);
      }) as never,
      true,
    )
    .fail((message, error) => {
      throw error ?? usageError(usageLine(message ?? 'invalid command line', failedCommand(words, reached)));
    });
  try {
    rejectUnknownCommand(words);
    await parser.parseAsync();
  } catch (error) {
    return logFailure(logger, error);
  }
  return typeof process.exitCode === 'number' ? process.exitCode : Number(process.exitCode ?? 0);
}

/** What people type by reflex: `deadman -v` for the version, `deadman help run` for `deadman run --help`. */
function reflexes(argv: string[]): string[] {
  if (argv.length === 1 && argv[0] === '-v') return ['--version'];
  if (argv[0] === 'help') return [...argv.slice(1), '--help'];
  return argv;
}

/** The command a yargs failure is about: the one it reached (`config check`), else the first word typed (`--config FILE` may come first). */
function failedCommand(argv: string[], reached: string[]): FailedCommand {
  const [first, second] = argv.filter((word, i) => !word.startsWith('-') && argv[i - 1] !== '--config');
  if (reached.length > 1) return { command: reached.join(' '), usage: '', typed: undefined };
  const module = commands.find((c) => String(c.command).split(' ')[0] === first);
  if (!module) return { command: '', usage: '', typed: first };
  return { command: first!, usage: String(module.command).split(' ').slice(1).join(' '), typed: second };
}

/** Commands whose program comes after `--`. */
const TAKES_PROGRAM = new Set(['run', 'unit', 'install', 'agent']);

/**
 * Runs before yargs validates and before any handler: an unknown option or a stray word is
 * one usage line with a did-you-mean from this command's own options.
 */
function rejectUnknownWords(argv: string[], args: Arguments, y: YargsInternals): boolean {
  const commandPath = y.getInternalMethods().getContext().commands;
  if (commandPath.length === 0) return false;
  const problem = commandLineProblem(
    argv,
    {
      command: commandPath.join(' '),
      options: optionTable(y.getOptions()),
      takesProgram: TAKES_PROGRAM.has(commandPath[0]!),
    },
    args._.slice(commandPath.length).map(String),
  );
  if (problem !== null) throw usageError(problem);
  return true;
}

/** What yargs hands a middleware (its typings in @types/yargs 17 omit the second argument). */
interface YargsInternals {
  getOptions(): YargsOptions;
  getInternalMethods(): { getContext(): { commands: string[] } };
}

interface YargsOptions {
  key: Record<string, unknown>;
  alias: Record<string, string[]>;
  boolean: string[];
  count: string[];
}

function optionTable(options: YargsOptions): Map<string, boolean> {
  const table = new Map<string, boolean>();
  for (const key of Object.keys(options.key)) {
    const takesValue = !options.boolean.includes(key) && !options.count.includes(key);
    for (const name of [key, ...(options.alias[key] ?? [])]) table.set(name, takesValue);
  }
  return table;
}

/** `deadman codex exec …` or `deadman stauts`: one line before yargs guesses. */
function rejectUnknownCommand(argv: string[]): void {
  const first = argv[0];
  if (first === undefined || first.startsWith('-')) return;
  const names = [...commands.map((c) => String(c.command).split(' ')[0]!), 'reference'];
  if (!names.includes(first)) throw usageError(unknownCommandMessage(first, names));
}

export function buildParser(parser: Argv): Argv {
  let built = parser
    .scriptName('deadman')
    .usage(
      '$0 <command> [options]\n\nKeeps long autonomous work alive: detects stalls, recovers them safely, revives interrupted agent sessions.',
    )
    .parserConfiguration({ 'populate--': true, 'unknown-options-as-args': false })
    .option('config', {
      type: 'string',
      describe: 'config file (default: $DEADMAN_CONFIG, ./deadman.toml, /etc/deadman/deadman.toml)',
      global: true,
    })
    .version(packageVersion())
    .strict()
    .detectLocale(false)
    .demandCommand(1, 'name a command')
    .recommendCommands()
    .wrap(Math.min(110, process.stdout.columns || 100))
    .epilogue(
      `Manuals: man deadman, man deadman.toml (or man -l ${packageFile('docs/man/deadman.1')}). Docs: ${packageFile('README.md')} and ${packageFile('docs')}/ (exit codes: docs/exit-codes.md).`,
    );
  // `reference` (hidden) renders the man pages and fish completion from `commands`, so it is not one of them.
  for (const command of commands)
    built = built.command(withExamples(command as CommandModule, String(command.command).split(' ')[0]!));
  built = built.command(referenceCommand(packageVersion()) as CommandModule);
  return built.help().alias('help', 'h');
}

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string };
  return pkg.version;
}
