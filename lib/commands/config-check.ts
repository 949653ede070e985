import type { CommandModule } from 'yargs';
import { dirname } from 'node:path';
import { userInfo } from 'node:os';
import { DeadmanError, ExitCode } from '../exit-codes.ts';
import { crossFieldProblems } from '../core/config/config-rules.ts';
import { chooseDiagnostician, describeDiagnostician } from '../core/config/diagnostician-choice.ts';
import { unwritableDirProblem } from '../io/config/writable-dir.ts';
import { createSdNotifier, probeAddon, readSystemdEnvironment, type AddonProbe } from '../io/service/sd-notify.ts';
import { explainText } from './check-plans.ts';
import { loadContext, stateOptions, type CommonArgs, type Context } from './shared/command-context.ts';

/**
 * `deadman config check [--json | --quiet]`: validates the config and shows what deadman would
 * use. `--json` is one object in the style of every --json (snake_case, docs/cli-json.md);
 * `--quiet` prints only the problems, so a cron line mails nothing while all is well. Exit 78
 * when there is a problem.
 */

interface ConfigCheckArgs extends CommonArgs {
  json?: boolean;
  quiet?: boolean;
}

export const configCheckCommand: CommandModule<object, ConfigCheckArgs> = {
  command: 'check',
  describe: 'validate the config and show what deadman would use',
  builder: (y) =>
    y
      .options(stateOptions)
      .option('json', { type: 'boolean', describe: 'print one JSON object (snake_case keys; docs/cli-json.md)' })
      .option('quiet', { type: 'boolean', describe: 'print only the problems (nothing when all is well): for cron' })
      .conflicts('json', 'quiet'),
  handler: async (args) => {
    const facts = await gatherFacts(args);
    if (facts.problems.length > 0) process.exitCode = ExitCode.CONFIG;
    if (args.json) process.stdout.write(`${JSON.stringify(facts, null, 2)}\n`);
    else process.stdout.write(renderFacts(facts, args.quiet === true));
  },
};

/** What `config check` found; the --json document, and the source of the text form. */
export interface ConfigFacts {
  ok: boolean;
  config_file: string | null;
  state_dir: string | null;
  database: string | null;
  marker_dir: string | null;
  under_systemd: boolean;
  notify_socket: string | null;
  watchdog_usec: number | null;
  watchdog_pid: number | null;
  notify_path: string;
  notify_detail: string;
  addon_loaded: boolean;
  addon_detail: string;
  /** Which diagnostician is configured and whether its key variable is set (never the key). */
  diagnostician: string | null;
  /** The typed plan each job's English `claim` became (`check --explain`'s lines), for the jobs that have one. */
  claim_plans: string[];
  problems: string[];
}

async function gatherFacts(args: ConfigCheckArgs): Promise<ConfigFacts> {
  const systemd = readSystemdEnvironment();
  const notifier = createSdNotifier();
  const probe = probeAddon();
  const machine = {
    under_systemd: systemd.underSystemd,
    notify_socket: systemd.notifySocket ?? null,
    watchdog_usec: systemd.watchdogUsec ?? null,
    watchdog_pid: systemd.watchdogPid ?? null,
    notify_path: notifier.path,
    notify_detail: notifier.detail,
    addon_loaded: probe.loaded,
    addon_detail: probe.loaded
      ? 'sd-notify loaded (NotifyAccess=main works)'
      : `${probe.why} (units need NotifyAccess=all for the systemd-notify fallback)`,
  };
  let context: Context;
  try {
    context = await loadContext(args);
  } catch (error) {
    if (!(error instanceof DeadmanError)) throw error;
    // The problems (at most 21 lines) each name the file.
    return {
      ok: false,
      config_file: args.config ?? null,
      state_dir: null,
      database: null,
      marker_dir: null,
      diagnostician: null,
      claim_plans: [],
      ...machine,
      problems: error.message.split('\n'),
    };
  }
  // WATCHDOG_USEC as set, whatever WATCHDOG_PID says: `config check` inside the unit is not its main process.
  const watchdogUsec = Number(process.env.WATCHDOG_USEC);
  const problems = environmentProblems(context, watchdogUsec > 0 ? watchdogUsec / 1000 : null);
  const notifyAccess = notifyAccessProblem(probe, process.env);
  if (notifyAccess) problems.push(notifyAccess);
  return {
    ok: problems.length === 0,
    config_file: context.file ?? null,
    state_dir: context.paths.stateDir,
    database: context.paths.database,
    marker_dir: context.paths.markerDir,
    diagnostician: describeDiagnostician(chooseDiagnostician(context.config.diagnose), process.env),
    ...machine,
    problems,
    claim_plans: explainText(
      Object.entries(context.config.jobs).filter(([, job]) => job.claim !== undefined),
      dirname(context.paths.database),
    ).lines,
  };
}

function renderFacts(facts: ConfigFacts, quiet: boolean): string {
  const problems = facts.problems.map((line) => `problem: ${line}\n`).join('');
  // A config that did not load has no paths to show: its problems alone, each naming the file.
  if (quiet || facts.state_dir === null) return problems;
  const lines = [
    `config file:   ${facts.config_file ?? '(none: built-in defaults)'}`,
    `state dir:     ${facts.state_dir}`,
    `database:      ${facts.database}`,
    `marker dir:    ${facts.marker_dir}`,
    `systemd:       ${facts.under_systemd ? `yes (NOTIFY_SOCKET=${facts.notify_socket})` : 'no (NOTIFY_SOCKET unset)'}`,
    `watchdog:      ${facts.watchdog_usec ? `${facts.watchdog_usec / 1000} ms (WATCHDOG_USEC; WATCHDOG_PID=${facts.watchdog_pid ?? 'unset'})` : 'none for this process'}`,
    `notify path:   ${facts.notify_path} — ${facts.notify_detail}`,
    `addon:         ${facts.addon_detail}`,
    `diagnostician: ${facts.diagnostician}`,
    ...(facts.claim_plans.length > 0 ? ['claim plans:', ...facts.claim_plans.map((line) => `  ${line}`)] : []),
    ...(facts.problems.length === 0 ? ['problems:      none'] : []),
  ];
  return `${lines.join('\n')}\n${problems}`;
}

/** What would fail at run time although every key is valid: rules between keys, unwritable state. */
function environmentProblems(context: Context, watchdogMs: number | null): string[] {
  const where = `set state_dir (or $STATE_DIRECTORY, StateDirectory= in the unit) to a directory the user ${userInfo().username} can write`;
  return [
    ...crossFieldProblems(context.config, { watchdogMs, chosen: context.chosen }),
    unwritableDirProblem(context.paths.stateDir, 'state dir', where),
    dirname(context.paths.database) === context.paths.stateDir
      ? null
      : unwritableDirProblem(
          dirname(context.paths.database),
          'database dir',
          'point database (or --database) at a writable place',
        ),
  ].filter((line): line is string => line !== null);
}

/**
 * Without the addon deadman's messages come from systemd-notify's PID, which a unit with
 * NotifyAccess=main never hears: its watchdog then kills healthy work.
 */
function notifyAccessProblem(probe: AddonProbe, env: NodeJS.ProcessEnv): string | null {
  const why =
    env.DEADMAN_NOTIFY === 'systemd-notify' ? 'DEADMAN_NOTIFY=systemd-notify' : probe.loaded ? null : probe.why;
  if (why === null) return null;
  return `notify: deadman notifies through systemd-notify (${why}), so its unit needs NotifyAccess=all: units made by \`deadman unit\`/\`install\` set it, the shipped deadman@.service says main; change that line, or make the addon load (\`npm rebuild sd-notify\`, needs libsystemd-dev)`;
}
