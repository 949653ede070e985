import type { CommandModule } from 'yargs';
import { packageVersion } from '../../io/package-root.ts';
import { commandTable } from './command-table.ts';
import { renderFishCompletion } from './fish-completion.ts';
import { renderDeadmanManPage } from './man-deadman.ts';
import { renderConfigManPage } from './man-config.ts';

/**
 * `deadman reference <page>` (hidden): prints a generated file the package ships —
 * completions/deadman.fish, man/deadman.1, man/deadman.toml.5. A test keeps the shipped files
 * equal to this output, so they say what the CLI and the schema do.
 */

export const REFERENCE_PAGES = {
  'deadman.fish': async () => renderFishCompletion(commandTable()),
  'deadman.1': async () => renderDeadmanManPage(commandTable(), packageVersion()),
  'deadman.toml.5': async () => {
    const { configJsonSchema } = await import('../../core/config/config-json-schema.ts');
    return renderConfigManPage(configJsonSchema(), packageVersion());
  },
} as const;

type Page = keyof typeof REFERENCE_PAGES;

export const referenceCommand: CommandModule<object, { page: Page }> = {
  command: 'reference <page>',
  describe: false,
  builder: (y) => y.positional('page', { choices: Object.keys(REFERENCE_PAGES) as Page[], demandOption: true }),
  handler: async (args) => {
    process.stdout.write(await REFERENCE_PAGES[args.page]());
  },
};
