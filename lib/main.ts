import { guardedStderr } from './io/log/log.ts';
import { keepYoungGenerationSmall } from './io/heap/young-generation.ts';

/**
 * Dispatch between the argument parsers. `deadman run …` (the hot path under systemd) and the
 * probes (`health`, `status`, `metrics`: lean-readers.ts) are parsed by node:util's
 * parseArgs from the same option tables yargs uses, so neither pays for loading yargs and every
 * other command; everything else, and `--help`, goes through yargs.
 */
export async function main(argv: string[]): Promise<void> {
  if (argv[0] === 'run' && !wantsHelp(argv)) {
    guardedStderr();
    const { runFromArgv } = await import('./commands/run.ts');
    keepYoungGenerationSmall();
    process.exitCode = await runFromArgv(argv.slice(1));
    return;
  }
  if (!wantsHelp(argv)) {
    // A bundle of its own (bin/bundle.js): a probe loads none of the code the other commands share.
    const { readLean } = await import('./commands/lean-readers.ts');
    const code = await readLean(argv[0], argv.slice(1));
    // null: not a probe, or a command line only yargs reads as it always has (and says what is wrong with it).
    if (code !== null) {
      process.exitCode = code;
      return;
    }
  }
  guardedStderr();
  const { runCli } = await import('./cli.ts');
  keepYoungGenerationSmall();
  process.exitCode = await runCli(argv);
}

function wantsHelp(argv: string[]): boolean {
  const end = argv.indexOf('--');
  const own = end === -1 ? argv : argv.slice(0, end);
  return own.includes('--help') || own.includes('-h');
}
