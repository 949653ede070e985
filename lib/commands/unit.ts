import type { CommandModule } from 'yargs';
import { defineService, serviceOptions, type ServiceArgs } from './unit/service-definition.ts';

/** `deadman unit [--name N] [--user] [--launchd] [run options] -- <command…>`: prints the file. */
export const unitCommand: CommandModule<object, ServiceArgs> = {
  command: 'unit',
  describe: 'print a systemd unit (or launchd plist) that runs a command under deadman run',
  builder: (y) =>
    serviceOptions(y).usage(
      '$0 unit [--name N] [--user] [--launchd] [--on-failure [UNIT]] [run options] -- <command…>',
    ),
  handler: async (args) => {
    const service = await defineService(args);
    // With --on-failure alone, its OnFailure= unit follows; `deadman install` writes both files.
    const companions = service.companions.map((file) => `\n# ---- ${file.fileName} ----\n${file.text}`);
    process.stdout.write([service.text, ...companions].join(''));
  },
};
