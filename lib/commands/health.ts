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
  json?: boolean;
}

export const healthCommand: CommandModule<object, HealthArgs> = {
  command: 'health',
  describe: 'exit 0 while the run is healthy, 1 when not (for liveness probes and HEALTHCHECK)',
  builder: (y) => y
    .option('name', { type: 'string', describe: 'the run to judge (default: name from the config)' })
    .option('quiet', { type: 'boolean', describe: 'print nothing; the exit code says it' })
    .option('json', { type: 'boolean', describe: 'print one JSON object (snake_case keys, ISO-8601 UTC times; docs/cli-json.md)' })
    .conflicts('json', 'quiet'),
  handler: async (args) => {
    const context = await loadContext(args);
    const name = args.name ?? context.config.name;
    if (!name) throw usageError('name the run: deadman health --name NAME (or set name in the config)');
    const record = readHealthFile(healthFilePath(context.paths.stateDir, name));
    const verdict = judgeHealth(record, systemClock.wall(), name);
    if (args.json) {
      const json = { name, healthy: verdict.healthy, refreshed_at: record ? new Date(record.updated_at).toISOString() : null, last_status: record?.status ?? null, detail: verdict.line };
      process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    } else if (!args.quiet) process.stdout.write(`${verdict.line}\n`);
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
