import type { CommandModule } from 'yargs';
import { DeadmanError, ExitCode } from '../exit-codes.ts';
import { discoverConfigFile } from '../io/config/config-file.ts';
import { createNotifier, probeAddon, readSystemdEnvironment } from '../io/notify.ts';
import { databaseOption, loadContext, type CommonArgs } from './command-context.ts';

const check: CommandModule<object, CommonArgs> = {
  command: 'check',
  describe: 'validate the config and show what deadman would use',
  builder: (y) => y.option('database', databaseOption),
  handler: async (args) => {
    const out = (line: string) => process.stdout.write(`${line}\n`);
    const file = discoverConfigFile({ explicitPath: args.config });
    let context;
    try {
      context = await loadContext(args);
    } catch (error) {
      if (!(error instanceof DeadmanError)) throw error;
      out(`config file:   ${file ?? '(none: built-in defaults)'}`);
      for (const line of error.message.split('\n')) out(`problem: ${line}`);
      process.exitCode = ExitCode.CONFIG;
      return;
    }
    const systemd = readSystemdEnvironment();
    const notifier = createNotifier();
    out(`config file:   ${context.file ?? '(none: built-in defaults)'}`);
    out(`state dir:     ${context.paths.stateDir}`);
    out(`database:      ${context.paths.database}`);
    out(`marker dir:    ${context.paths.markerDir}`);
    out(`systemd:       ${systemd.underSystemd ? `yes (NOTIFY_SOCKET=${systemd.notifySocket})` : 'no (NOTIFY_SOCKET unset)'}`);
    out(`watchdog:      ${systemd.watchdogUsec ? `${systemd.watchdogUsec / 1000} ms (WATCHDOG_USEC; WATCHDOG_PID=${systemd.watchdogPid ?? 'unset'})` : 'none for this process'}`);
    out(`notify path:   ${notifier.path} — ${notifier.detail}`);
    out(`addon:         ${addonLine()}`);
    out('problems:      none');
  },
};

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
