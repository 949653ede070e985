import { parseArgs } from 'node:util';
import type { CommandModule, Options } from 'yargs';
import { createLogger, logFailure } from '../io/log/log.ts';

/**
 * The probes (`deadman health --name N` every few seconds on every pod, `status`, `metrics` from
 * a timer) without yargs and the other commands: node:util's parseArgs over the command's own
 * option table, then the same handler yargs would call. Only a command line yargs would take
 * exactly so is parsed here: anything else (an unknown or repeated option, a stray word, a
 * missing value, options that conflict) returns null and goes through yargs, which says what is
 * wrong in the words it always has. Each prints with printSync (io/output/print-sync.ts), never
 * through process.stdout, whose stream stack is some 25 of Node's modules.
 */

interface LeanReader {
  options: Record<string, Options>;
  command: CommandModule<object, never>;
  conflict?: readonly string[];
}

const READERS: Record<string, () => Promise<LeanReader>> = {
  health: async () => {
    const { HEALTH_OPTIONS, HEALTH_CONFLICT, healthCommand } = await import('./health.ts');
    return { options: HEALTH_OPTIONS, command: healthCommand as never, conflict: HEALTH_CONFLICT };
  },
  status: async () => {
    const { STATUS_OPTIONS, statusCommand } = await import('./status.ts');
    return { options: STATUS_OPTIONS, command: statusCommand as never };
  },
  metrics: async () => {
    const { METRICS_OPTIONS, metricsCommand } = await import('./metrics.ts');
    return { options: METRICS_OPTIONS, command: metricsCommand as never };
  },
};

/** `--config` is every command's (cli.ts). */
const GLOBAL_OPTIONS = { config: { type: 'string' } } as const;

/** The command's exit code, or null when yargs must read this command line (or it is no probe). */
export async function readLean(command: string | undefined, words: string[]): Promise<number | null> {
  if (command === undefined || !Object.hasOwn(READERS, command)) return null;
  const reader = await READERS[command]!();
  const values = leanValues(words, { ...reader.options, ...GLOBAL_OPTIONS });
  if (values === null || reader.conflict?.every((name) => values[name] !== undefined)) return null;
  const logger = createLogger();
  try {
    await reader.command.handler(values as never);
  } catch (error) {
    return logFailure(logger, error);
  }
  return typeof process.exitCode === 'number' ? process.exitCode : Number(process.exitCode ?? 0);
}

/** Each option at most once, with its value; null for any other command line. */
function leanValues(words: string[], options: Record<string, Options>): Record<string, unknown> | null {
  const table = Object.fromEntries(
    Object.entries(options).map(([name, option]) => [name, { type: option.type as 'string' | 'boolean' }]),
  );
  try {
    const { values, tokens } = parseArgs({
      args: words,
      options: table,
      strict: true,
      allowPositionals: false,
      tokens: true,
    });
    const names = tokens.filter((token) => token.kind === 'option').map((token) => token.name);
    return new Set(names).size === names.length && !tokens.some((token) => token.kind === 'option-terminator')
      ? values
      : null;
  } catch {
    return null;
  }
}
