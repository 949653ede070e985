import { ExitCode } from '../../exit-codes.ts';
import type { CommandDoc, OptionDoc } from './command-table.ts';
import { heading, roffText, subheading, tagged, titleLine } from './roff.ts';

/** deadman(1), from the same option tables as `--help`. */
export function renderDeadmanManPage(table: readonly CommandDoc[], version: string): string {
  const lines = [
    titleLine('deadman', 1, version, 'User Commands'),
    heading('NAME'),
    'deadman \\- keep long autonomous work alive: detect stalls, recover them safely, revive interrupted agent sessions',
    heading('SYNOPSIS'),
    '.B deadman',
    '.I command',
    '[\\fIoptions\\fR] [\\fB\\-\\-\\fR \\fIprogram\\fR [\\fIargs\\fR...]]',
    heading('DESCRIPTION'),
    roffText(
      "deadman wraps a coding agent (codex exec --json, claude -p --output-format stream-json) or any long command as a systemd unit's ExecStart=." +
        ' It feeds the systemd watchdog only while the work moves, kills only hung processes it can prove it owns, records incidents in SQLite,' +
        ' and resumes an interrupted agent session from its revive marker.',
    ),
    '.PP',
    roffText(
      'Every command takes --config FILE (default: $DEADMAN_CONFIG, ./deadman.toml, /etc/deadman/deadman.toml) and --help.',
    ),
    heading('COMMANDS'),
    ...table.flatMap(commandSection),
    heading('EXIT STATUS'),
    roffText(
      "0\u2013125 is the command's own code passed through, 128+N that it died of signal N. deadman's own codes:",
    ),
    ...Object.entries(ExitCode).flatMap(([name, code]) => tagged(String(code), name.toLowerCase().replace(/_/g, ' '))),
    '.PP',
    roffText('The meaning of each, and which ones a unit does not restart, is in docs/exit-codes.md of the package.'),
    heading('ENVIRONMENT'),
    ...tagged('DEADMAN_CONFIG', 'the config file when --config is not given.'),
    ...tagged('STATE_DIRECTORY', "the state directory (database, markers), as systemd's StateDirectory= sets it."),
    ...tagged(
      'NOTIFY_SOCKET, WATCHDOG_USEC',
      'set by systemd for Type=notify units; deadman sends READY=1, STATUS= and WATCHDOG=1.',
    ),
    ...tagged('DEADMAN_NOTIFY', '"systemd-notify" forces the fallback notifier, "none" disables notifying.'),
    heading('FILES'),
    ...tagged('/etc/deadman/NAME.toml', 'the config of the deadman@NAME.service template; see deadman.toml(5).'),
    ...tagged(
      '/var/lib/deadman, ~/.local/state/deadman',
      'the state directory as root and otherwise: deadman.db, markers/, health/.',
    ),
    heading('SEE ALSO'),
    '.BR deadman.toml (5),',
    '.BR systemd.service (5),',
    '.BR systemd.time (7),',
    '.BR systemctl (1)',
    '',
  ];
  return lines.join('\n');
}

function commandSection(command: CommandDoc): string[] {
  if (command.subcommands.length > 0) return command.subcommands.flatMap(commandSection);
  return [
    subheading(`deadman ${command.name}${command.usage ? ` ${command.usage}` : ''}`),
    roffText(`${command.describe}.`),
    ...command.options.flatMap(optionLines),
  ];
}

function optionLines(option: OptionDoc): string[] {
  const value = option.choices.length > 0 ? ` ${option.choices.join('|')}` : option.takesValue ? ' VALUE' : '';
  return tagged(`--${option.flag}${value}`, option.describe);
}
