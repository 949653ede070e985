import type { CommandModule } from 'yargs';
import { defineService, serviceOptions, type ServiceArgs } from './service-definition.ts';

/** `deadman unit [--name N] [--user] [--launchd] [run options] -- <command…>`: prints the file. */
export const unitCommand: CommandModule<object, ServiceArgs> = {
  command: 'unit',
  describe: 'print a systemd unit (or launchd plist) that runs a command under deadman run',
  builder: (y) => serviceOptions(y).usage('$0 unit [--name N] [--user] [--launchd] [run options] -- <command…>'),
  handler: async (args) => {
    process.stdout.write((await defineService(args)).text);
  },
};
