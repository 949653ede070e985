import type { CommandModule } from 'yargs';
import { DeadmanError, ExitCode } from '../exit-codes.ts';
import { dirname } from 'node:path';
import { userInfo } from 'node:os';
import { crossFieldProblems } from '../core/config/config-rules.ts';
import { chooseDiagnostician, describeDiagnostician } from '../core/incident/diagnostician-choice.ts';
import { unwritableDirProblem } from '../io/config/writable-dir.ts';
import { createNotifier, probeAddon, readSystemdEnvironment } from '../io/notify.ts';
import { databaseOption, loadContext, type CommonArgs, type Context } from './command-context.ts';

const check: CommandModule<object, CommonArgs> = {
  command: 'check',
  describe: 'validate the config and show what deadman would use',
  builder: (y) => y.option('database', databaseOption),
  handler: async (args) => {
    const out = (line: string) => process.stdout.write(`${line}\n`);
    let context;
    try {
      context = await loadContext(args);
    } catch (error) {
      if (!(error instanceof DeadmanError)) throw error;
      // Only the problems, each naming the file: with the 21-line cap they fit a journal screen.
      for (const line of error.message.split('\n')) out(`problem: ${line}`);
      process.exitCode = ExitCode.CONFIG;
      return;
    }
    const systemd = readSystemdEnvironment();
    const notifier = createNotifier();
    // WATCHDOG_USEC as set, whatever WATCHDOG_PID says: `config check` inside the unit is not its main process.
    const watchdogUsec = Number(process.env.WATCHDOG_USEC);
    const problems = environmentProblems(context, watchdogUsec > 0 ? watchdogUsec / 1000 : null);
    out(`config file:   ${context.file ?? '(none: built-in defaults)'}`);
    out(`state dir:     ${context.paths.stateDir}`);
    out(`database:      ${context.paths.database}`);
    out(`marker dir:    ${context.paths.markerDir}`);
    out(`systemd:       ${systemd.underSystemd ? `yes (NOTIFY_SOCKET=${systemd.notifySocket})` : 'no (NOTIFY_SOCKET unset)'}`);
    out(`watchdog:      ${systemd.watchdogUsec ? `${systemd.watchdogUsec / 1000} ms (WATCHDOG_USEC; WATCHDOG_PID=${systemd.watchdogPid ?? 'unset'})` : 'none for this process'}`);
    out(`notify path:   ${notifier.path} — ${notifier.detail}`);
    out(`addon:         ${addonLine()}`);
    out(`diagnostician: ${describeDiagnostician(chooseDiagnostician(context.config.diagnose), process.env)}`);
    if (problems.length === 0) out('problems:      none');
    for (const line of problems) out(`problem: ${line}`);
    if (problems.length > 0) process.exitCode = ExitCode.CONFIG;
  },
};

/** What would fail at run time although every key is valid: rules between keys, unwritable state. */
function environmentProblems(context: Context, watchdogMs: number | null): string[] {
  const where = `set state_dir (or $STATE_DIRECTORY, StateDirectory= in the unit) to a directory the user ${userInfo().username} can write`;
  return [
    ...crossFieldProblems(context.config, watchdogMs),
    unwritableDirProblem(context.paths.stateDir, 'state dir', where),
    dirname(context.paths.database) === context.paths.stateDir ? null
      : unwritableDirProblem(dirname(context.paths.database), 'database dir', 'point database (or --database) at a writable place'),
  ].filter((line): line is string => line !== null);
}

/** Reported even outside systemd, so an operator can tell whether a unit needs NotifyAccess=all. */
function addonLine(): string {
  const probe = probeAddon();
  return probe.loaded ? 'sd-notify loaded (NotifyAccess=main works)' : `${probe.why} (units need NotifyAccess=all for the systemd-notify fallback)`;
}

const schema: CommandModule<object, CommonArgs> = {
  command: 'schema',
  describe: 'print the JSON Schema of deadman.toml (for editors)',
  handler: async () => {
    const { z } = await import('zod');
    const { configSchema } = await import('../core/config/config.ts');
    const jsonSchema = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' });
    process.stdout.write(`${JSON.stringify({ title: 'deadman.toml', ...jsonSchema }, null, 2)}\n`);
  },
};

export const configCommand: CommandModule<object, CommonArgs> = {
  command: 'config <action>',
  describe: 'inspect the configuration',
  builder: (y) => y.command(check).command(schema).demandCommand(1, 'name an action: check or schema'),
  handler: () => {},
};
