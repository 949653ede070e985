import yargs, { type Arguments, type Argv, type CommandModule } from 'yargs';
import { readFileSync } from 'node:fs';
import { usageError } from './exit-codes.ts';
import { commandLineProblem, unknownCommandMessage } from './core/config/command-line.ts';
import { createLogger, exitQuietlyOnEpipe, logFailure } from './io/log.ts';
import { packageFile } from './io/package-files.ts';
import { commands } from './commands/index.ts';
import { referenceCommand } from './commands/reference/reference.ts';

/**
 * yargs wiring only: registers the commands, maps outcomes to exit codes. Importable by
 * tests; returns the exit code instead of exiting.
 */
export async function runCli(argv: string[]): Promise<number> {
  const logger = createLogger();
  exitQuietlyOnEpipe(process.stdout);
  let checked = false;
  // Every usage failure throws, so that no handler runs after one (yargs goes on otherwise).
  const parser = buildParser(yargs(argv))
    .middleware(((args: Arguments, y: YargsInternals) => {
      // The innermost command is checked first; its parent (`config` of `config check`) then sees the same words.
      checked ||= rejectUnknownWords(argv, args, y);
    }) as never, true)
    .fail((message, error) => {
      throw error ?? usageError(`${oneLine(message ?? 'invalid command line')} (see deadman --help)`);
    });
  try {
    rejectUnknownCommand(argv);
    await parser.parseAsync();
  } catch (error) {
    return logFailure(logger, error);
  }
  return typeof process.exitCode === 'number' ? process.exitCode : Number(process.exitCode ?? 0);
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
  const problem = commandLineProblem(argv, {
    command: commandPath.join(' '),
    options: optionTable(y.getOptions()),
    takesProgram: TAKES_PROGRAM.has(commandPath[0]!),
  }, args._.slice(commandPath.length).map(String));
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
    .usage('$0 <command> [options]\n\nKeeps long autonomous work alive: detects stalls, recovers them safely, revives interrupted agent sessions.')
    .parserConfiguration({ 'populate--': true, 'unknown-options-as-args': false })
    .option('config', { type: 'string', describe: 'config file (default: $DEADMAN_CONFIG, ./deadman.toml, /etc/deadman/deadman.toml)', global: true })
    .version(packageVersion())
    .strict()
    .detectLocale(false)
    .demandCommand(1, 'name a command')
    .recommendCommands()
    .wrap(Math.min(110, process.stdout.columns || 100))
    .epilogue(`Manuals: man deadman, man deadman.toml (or man -l ${packageFile('docs/man/deadman.1')}). Docs: ${packageFile('README.md')} and ${packageFile('docs')}/ (exit codes: docs/exit-codes.md).`);
  // `reference` (hidden) renders the man pages and fish completion from `commands`, so it is not one of them.
  for (const command of [...commands, referenceCommand(packageVersion())]) built = built.command(command as CommandModule);
  return built.help().alias('help', 'h');
}

function oneLine(text: string): string {
  return text.split('\n').map((s) => s.trim()).filter(Boolean).join('; ');
}

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string };
  return pkg.version;
}
