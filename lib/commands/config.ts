import type { CommandModule } from 'yargs';
import type { CommonArgs } from './shared/command-context.ts';
import { configCheckCommand } from './config-check.ts';
import { withExamples } from './examples.ts';

const schema: CommandModule<object, CommonArgs> = {
  command: 'schema',
  describe: 'print the JSON Schema of deadman.toml (for editors; the package ships it as contrib/deadman.schema.json)',
  handler: async () => {
    const { configJsonSchema } = await import('../core/config/config-json-schema.ts');
    process.stdout.write(`${JSON.stringify(configJsonSchema(), null, 2)}\n`);
  },
};

export const configCommand: CommandModule<object, CommonArgs> = {
  command: 'config <action>',
  describe: 'inspect the configuration',
  builder: (y) =>
    y
      .command(withExamples(configCheckCommand, 'config check'))
      .command(withExamples(schema, 'config schema'))
      .demandCommand(1, 'name an action: check or schema'),
  handler: () => {},
};
