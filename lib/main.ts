import { exitQuietlyOnEpipe } from './io/log/log.ts';
import { keepYoungGenerationSmall } from './io/heap/young-generation.ts';

/**
 * Dispatch between the two argument parsers. `deadman run …` (the hot path under systemd) is
 * parsed by node:util's parseArgs from the same option table yargs uses, so a supervised
 * start does not pay for loading yargs; everything else, and `run --help`, goes through yargs.
 */
export async function main(argv: string[]): Promise<void> {
  exitQuietlyOnEpipe(process.stderr);
  if (argv[0] === 'run' && !wantsHelp(argv)) {
    const { runFromArgv } = await import('./commands/run.ts');
    keepYoungGenerationSmall();
    process.exitCode = await runFromArgv(argv.slice(1));
    return;
  }
  const { runCli } = await import('./cli.ts');
  keepYoungGenerationSmall();
  process.exitCode = await runCli(argv);
}

function wantsHelp(argv: string[]): boolean {
  const end = argv.indexOf('--');
  const own = end === -1 ? argv : argv.slice(0, end);
  return own.includes('--help') || own.includes('-h');
}
