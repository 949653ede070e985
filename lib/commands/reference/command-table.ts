import yargs, { type CommandModule } from 'yargs';
import { commands } from '../index.ts';
import { RUN_OPTIONS, type RunOption } from '../run/run-options.ts';

/**
 * Every command with its options, read from the same yargs builders that parse and print
 * `--help`, so that the fish completion and the man page cannot drift from the CLI.
 */

export interface OptionDoc {
  flag: string;
  describe: string;
  takesValue: boolean;
  choices: string[];
}

export interface CommandDoc {
  /** `config check`, `run`. */
  name: string;
  /** The yargs command string after the name: `[options] [-- <command..>]`. */
  usage: string;
  describe: string;
  options: OptionDoc[];
  /** The values a positional argument takes when it lists them (`completion fish|bash|zsh`). */
  values: string[];
  subcommands: CommandDoc[];
}

/** Options every command has, described once in the man page rather than per command. */
const COMMON = new Set(['help', 'version', 'config']);

/** The registered commands (`reference` itself is registered by the CLI beside them, hidden). */
export function commandTable(): CommandDoc[] {
  return commands.map((command) => describeCommand(command as CommandModule, ''));
}

function describeCommand(command: CommandModule, parent: string): CommandDoc {
  const [word, ...usage] = String(command.command).split(' ');
  const name = `${parent}${word}`;
  const built = yargs([]);
  if (typeof command.builder === 'function') command.builder(built as never);
  const internals = built as unknown as YargsIntrospection;
  const options = internals.getOptions();
  const handlers = internals.getInternalMethods().getCommandInstance().getCommandHandlers();
  const descriptions = internals.getInternalMethods().getUsageInstance().getDescriptions();
  const positional = new Set(usage.map((part) => part.replace(/[<>[\]]|\.\./g, '')));
  const aliases = new Set(Object.values(options.alias).flat());
  return {
    name,
    usage: usage.join(' '),
    describe: String(command.describe ?? ''),
    options: Object.keys(options.key)
      .filter((flag) => !COMMON.has(flag) && !positional.has(flag) && !aliases.has(flag))
      .map((flag) => ({
        flag,
        describe: String(descriptions[flag] ?? '').replace(/^__yargsString__:/, ''),
        takesValue: !options.boolean.includes(flag) && !options.count.includes(flag),
        choices: (options.choices[flag] ?? runOptionChoices(flag)).map(String),
      })),
    values: [...positional].flatMap((name) => (options.choices[name] ?? []).map(String)),
    subcommands: Object.values(handlers).map((handler) =>
      describeCommand(
        { command: handler.original, describe: handler.description, builder: handler.builder } as CommandModule,
        `${name} `,
      ),
    ),
  };
}

/**
 * A flag of `deadman run` (also offered by `unit` and `install`) that names a config key with a
 * choice: its values, which the config schema checks (yargs' choices would refuse them first, in
 * its own words and with another exit code than the file's).
 */
function runOptionChoices(flag: string): readonly string[] {
  const option = (RUN_OPTIONS as Record<string, RunOption>)[flag];
  return option?.choices ?? [];
}

/** What yargs exposes for introspection (its typings omit these). */
interface YargsIntrospection {
  getOptions(): {
    key: Record<string, unknown>;
    alias: Record<string, string[]>;
    boolean: string[];
    count: string[];
    choices: Record<string, unknown[]>;
  };
  getInternalMethods(): {
    getCommandInstance(): {
      getCommandHandlers(): Record<
        string,
        { original: string; description: string; builder: CommandModule['builder'] }
      >;
    };
    getUsageInstance(): { getDescriptions(): Record<string, string | undefined> };
  };
}
