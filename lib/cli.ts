import yargs, { type Argv, type CommandModule } from 'yargs';
import { readFileSync } from 'node:fs';
import { ExitCode } from './exit-codes.ts';
import { createLogger, exitQuietlyOnEpipe, logFailure } from './io/log.ts';
import { commands } from './commands/index.ts';

/**
 * yargs wiring only: registers the commands, maps outcomes to exit codes. Importable by
 * tests; returns the exit code instead of exiting.
 */
export async function runCli(argv: string[]): Promise<number> {
  const logger = createLogger();
  exitQuietlyOnEpipe(process.stdout);
  let usageFailure: string | null = null;
  const parser = buildParser(yargs(argv))
    .fail((message, error) => {
      if (error) throw error;
      usageFailure = message ?? 'invalid command line';
    });
  try {
    await parser.parseAsync();
  } catch (error) {
    return logFailure(logger, error);
  }
  if (usageFailure !== null) {
    logger.log('error', `${oneLine(usageFailure)} (see deadman --help)`);
    return ExitCode.USAGE;
  }
  return typeof process.exitCode === 'number' ? process.exitCode : Number(process.exitCode ?? 0);
}

export function buildParser(parser: Argv): Argv {
  let built = parser
    .scriptName('deadman')
    .usage('$0 <command> [options]\n\nKeeps long autonomous work alive: detects stalls, recovers them safely, revives interrupted agent sessions.')
    .parserConfiguration({ 'populate--': true, 'unknown-options-as-args': false })
    .option('config', { type: 'string', describe: 'config file (default: $DEADMAN_CONFIG, ./deadman.toml, /etc/deadman/deadman.toml)', global: true })
    .version(packageVersion())
    .completion('completion', 'print a shell completion script (bash/zsh): deadman completion >> ~/.bashrc')
    .strict()
    .demandCommand(1, 'name a command')
    .recommendCommands()
    .wrap(Math.min(110, process.stdout.columns || 100))
    .epilogue('Exit codes: see docs/exit-codes.md. Docs: README.md, docs/.');
  for (const command of commands) built = built.command(command as CommandModule);
  return built.help().alias('help', 'h');
}

function oneLine(text: string): string {
  return text.split('\n').map((s) => s.trim()).filter(Boolean).join('; ');
}

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
