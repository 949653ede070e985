import type { CommandModule } from 'yargs';
import { readFileSync } from 'node:fs';
import { judgeHealth, parseHealthRecord, type HealthRecord } from '../core/status/health.ts';
import { ExitCode, usageError } from '../exit-codes.ts';
import { systemClock } from '../io/clock.ts';
import { healthFilePath } from '../io/health-file.ts';
import { loadContext, type CommonArgs } from './command-context.ts';

/**
 * `deadman health --name N`: exit 0 while run N is healthy, 1 when it is not — for
 * livenessProbe.exec, HEALTHCHECK and Nomad checks. Reads only the health file, so it is cheap
 * and works while deadman itself is wedged (then the file goes stale).
 */

interface HealthArgs extends CommonArgs {
  name?: string;
  quiet?: boolean;
}

export const healthCommand: CommandModule<object, HealthArgs> = {
  command: 'health',
  describe: 'exit 0 while the run is healthy, 1 when not (for liveness probes and HEALTHCHECK)',
  builder: (y) => y
    .option('name', { type: 'string', describe: 'the run to judge (default: name from the config)' })
    .option('quiet', { type: 'boolean', describe: 'print nothing; the exit code says it' }),
  handler: async (args) => {
    const context = await loadContext(args);
    const name = args.name ?? context.config.name;
    if (!name) throw usageError('name the run: deadman health --name NAME (or set name in the config)');
    const verdict = judgeHealth(readHealthFile(healthFilePath(context.paths.stateDir, name)), systemClock.wall(), name);
    if (!args.quiet) process.stdout.write(`${verdict.line}\n`);
    if (!verdict.healthy) process.exitCode = ExitCode.ATTENTION;
  },
};

function readHealthFile(path: string): HealthRecord | null {
  try {
    return parseHealthRecord(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}
