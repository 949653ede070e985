import type { CommandModule } from 'yargs';
import { homedir, userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { usageError } from '../exit-codes.ts';
import { formatArgv } from '../core/process/format-argv.ts';
import { installFile } from '../io/units/install-file.ts';
import { ensurePrivateDir } from '../io/files/paths.ts';
import { defineService, serviceOptions, type ServiceArgs, type ServiceDefinition } from './unit/service-definition.ts';

/**
 * `deadman install [same options as unit] [--force] [--unit-dir DIR] -- <command…>`: writes
 * what `deadman unit` prints to where the service manager reads it, and prints the one
 * command that starts it. Starting is left to the operator: enabling a unit is their call.
 */

interface InstallArgs extends ServiceArgs {
  force?: boolean;
  'unit-dir'?: string;
}

export const installCommand: CommandModule<object, InstallArgs> = {
  command: 'install',
  describe: 'write the unit (or plist) of deadman unit into place and print how to start it',
  builder: (y) =>
    serviceOptions(y)
      .option('force', { type: 'boolean', describe: 'replace an existing file' })
      .option('unit-dir', { type: 'string', describe: 'write here instead of the standard directory' })
      .usage('$0 install [--name N] [--user] [--launchd] [--on-failure [UNIT]] [--force] [run options] -- <command…>'),
  handler: async (args) => {
    const service = await defineService(args);
    const path = join(targetDirectory(args, service), service.fileName);
    // --env may carry tokens: then only the owner (root, or the user's own manager) reads it.
    // ReadWritePaths= names them, and systemd refuses to start a unit whose listed path is missing.
    for (const dir of service.writablePaths) ensurePrivateDir(dir);
    const mode = service.holdsEnvironment ? 0o600 : 0o644;
    const written = [{ fileName: service.fileName, text: service.text }, ...service.companions].map((file) => {
      const target = join(dirname(path), file.fileName);
      return `${installFile(target, file.text, { replace: args.force === true, mode })} ${target}\n`;
    });
    process.stdout.write(
      `${written.join('')}${nextSteps(service, path)
        .map((line) => `${line}\n`)
        .join('')}`,
    );
  },
};

function targetDirectory(args: InstallArgs, service: ServiceDefinition): string {
  if (args['unit-dir']) return resolve(args['unit-dir']);
  const home = process.env.HOME || homedir();
  if (service.kind === 'launchd') return join(home, 'Library', 'LaunchAgents');
  if (service.scope === 'user') return join(process.env.XDG_CONFIG_HOME || join(home, '.config'), 'systemd', 'user');
  if (process.getuid?.() !== 0) {
    throw usageError(
      'a system unit goes to /etc/systemd/system, which needs root: run this with sudo, or pass --user for a unit of your own',
    );
  }
  return '/etc/systemd/system';
}

function nextSteps(service: ServiceDefinition, path: string): string[] {
  const unit = service.fileName;
  // This job's records, where this job keeps them: the flags given here, not the shell's defaults.
  const records = formatArgv(['deadman', 'incidents', '--name', service.run.name, ...service.run.readArgs], {
    quoting: 'shell',
  });
  if (service.kind === 'launchd') {
    return [
      `start: launchctl bootstrap gui/$(id -u) ${path}`,
      `stop:  launchctl bootout gui/$(id -u) ${path}`,
      `watch: ${records}`,
    ];
  }
  const systemctl = service.scope === 'user' ? 'systemctl --user' : 'systemctl';
  const steps = [
    `start: ${systemctl} daemon-reload && ${systemctl} enable --now ${unit}`,
    `watch: ${systemctl} status ${unit} · ${records}`,
  ];
  if (service.scope === 'user')
    steps.push(`keep it running after you log out: loginctl enable-linger ${userInfo().username}`);
  return steps;
}
