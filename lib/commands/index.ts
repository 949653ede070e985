import type { CommandModule } from 'yargs';
import { configCommand } from './config.ts';
import { checkCommand } from './check.ts';
import { incidentsCommand } from './incidents.ts';
import { reportCommand } from './report.ts';

/** Every registered command. Only commands that work are listed here. */
export const commands: CommandModule<object, never>[] = [configCommand as never, checkCommand as never,
  incidentsCommand as never, reportCommand as never];
