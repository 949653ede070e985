import type { CommandModule } from 'yargs';
import { commandTable } from './command-table.ts';
import { renderFishCompletion } from './fish-completion.ts';
import { renderBashCompletion } from './bash-completion.ts';
import { renderZshCompletion } from './zsh-completion.ts';
import { renderDeadmanManPage } from './man-deadman.ts';
import { renderConfigManPage } from './man-config.ts';

/**
 * `deadman reference <page>` (hidden): prints a generated file the package ships —
 * contrib/completions/ (deadman.fish, deadman.bash, _deadman), docs/man/deadman.1, docs/man/deadman.toml.5. A test keeps the shipped files
 * equal to this output, so they say what the CLI and the schema do.
 */

/** The pages, for the package `version` (the CLI passes it: this module cannot import the CLI). */
function referencePages(version: string) {
  return {
    'deadman.fish': async () => renderFishCompletion(commandTable()),
    'deadman.bash': async () => renderBashCompletion(commandTable()),
    _deadman: async () => renderZshCompletion(commandTable()),
    'deadman.1': async () => renderDeadmanManPage(commandTable(), version),
    'deadman.toml.5': async () => {
      const { configJsonSchema } = await import('../../core/config/config-json-schema.ts');
      return renderConfigManPage(configJsonSchema(), version);
    },
  };
}

type Page = keyof ReturnType<typeof referencePages>;

export function referenceCommand(version: string): CommandModule<object, { page: Page }> {
  const pages = referencePages(version);
  return {
    command: 'reference <page>',
    describe: false,
    builder: (y) => y.positional('page', { choices: Object.keys(pages) as Page[], demandOption: true }),
    handler: async (args) => {
      process.stdout.write(await pages[args.page]());
    },
  };
}
