import type { CommandModule } from 'yargs';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatDuration } from '../core/time/duration.ts';
import { renderIncidentList } from '../core/incident/report-text.ts';
import { demoScenarios, judgeScenario, type Scenario } from '../demo/scenarios.ts';
import { runBounded } from '../io/process/bounded-run.ts';
import { childEnvironment } from '../io/process/child-environment.ts';
import { commandClock } from './shared/command-clock.ts';
import { packageFile } from '../io/files/package-files.ts';
import { listIncidents } from '../io/store/incident-records.ts';
import { Store } from '../io/store/store.ts';
import { stateOptions, type CommonArgs } from './shared/command-context.ts';
import { ExitCode } from '../exit-codes.ts';

/**
 * `deadman demo`: seven real failures, offline, in about 15 s — each a real `deadman run` of a
 * fake agent or a shell job, in a temporary state directory (kept, so its reports can be read).
 */

const out = (line = '') => process.stdout.write(`${line}\n`);

export const demoCommand: CommandModule<object, CommonArgs> = {
  command: 'demo',
  describe: 'show deadman catching seven kinds of failure, for real and offline (about 15 s)',
  builder: (y) => y.option('database', stateOptions.database),
  handler: async (args) => {
    const dir = mkdtempSync(join(tmpdir(), 'deadman-demo-'));
    const database = args.database ?? join(dir, 'deadman.db');
    const paths = {
      deadman: [process.execPath, packageFile('bin/deadman.js')],
      fakeAgent: [process.execPath, packageFile('dist/lib/demo/fake-agent.js')],
      dir,
      database,
    };
    const argvLog = join(dir, 'agent-argv.jsonl');
    // Not the caller's systemd unit, config or state: the demo's runs are its own.
    const env = {
      ...childEnvironment(process.env, null),
      STATE_DIRECTORY: join(dir, 'state'),
      DEADMAN_CONFIG: '',
      FAKE_AGENT_ARGV_LOG: argvLog,
    };
    out('deadman demo — real stalls, caught and handled (offline: fake agents, no API key)');
    out(`state in ${dir}`);
    const scenarios = demoScenarios(paths);
    const started = commandClock.monotonic();
    const missed: string[] = [];
    for (const [index, scenario] of scenarios.entries()) {
      out();
      out(`${index + 1}/${scenarios.length}  ${scenario.title}`);
      out(`     ${scenario.story}`);
      const exitCode = await runScenario(scenario, { env, dir, argvLog });
      const { lines, incident } = explain(scenario, database, argvLog);
      for (const line of lines) out(`     ${line}`);
      const miss = judgeScenario(scenario, exitCode, incident);
      if (miss) missed.push(miss);
    }
    out();
    out(`done in ${formatDuration(commandClock.monotonic() - started)}. Incidents recorded:`);
    const store = new Store(database);
    try {
      out(renderIncidentList(listIncidents(store), commandClock.wall()).trimEnd().replace(/^/gm, '  '));
    } finally {
      store.close();
    }
    out(`read one: deadman report latest --database ${database}`);
    // A demo that did not show what it promises must not look like a success.
    for (const line of missed) process.stderr.write(`deadman demo: ${line}\n`);
    if (missed.length > 0) process.exitCode = ExitCode.INTERNAL;
  },
};

/** Runs the steps in order; returns how the last one ended. */
async function runScenario(
  scenario: Scenario,
  ctx: { env: NodeJS.ProcessEnv; dir: string; argvLog: string },
): Promise<number | string> {
  if (scenario.config) writeFileSync(scenario.config.file, scenario.config.text);
  let last: number | string = 'not run';
  for (const step of scenario.steps) {
    out(`     $ ${step.shown}`);
    const outcome = await runBounded({
      argv: step.argv,
      cwd: ctx.dir,
      env: { ...ctx.env, ...step.env },
      timeoutMs: 30_000,
    });
    const code = outcome.kind === 'exited' ? outcome.code : outcome.kind;
    const said =
      'stderr' in outcome
        ? outcome.stderr
            .split('\n')
            .filter((l) =>
              /^deadman: (HUNG|TERMINATE|incident|revived|EVIDENCE|OUTPUT|not reviving|USAGE_LIMIT|waiting for usage|FINISHED|REPEATED)/.test(
                l,
              ),
            )
        : [];
    for (const line of said) out(`     ${line}`);
    out(`     → exit ${code}`);
    last = code;
  }
  return last;
}

/** One or two lines on what the database and the fake agent show happened, and the newest incident. */
function explain(scenario: Scenario, database: string, argvLog: string): { lines: string[]; incident: string | null } {
  const store = new Store(database);
  try {
    const name = scenario.steps[0]!.argv[scenario.steps[0]!.argv.indexOf('--name') + 1]!;
    const incident = store.get<{ id: number; kind: string; state: string }>(
      'SELECT i.id, i.kind, i.state FROM incidents i JOIN runs r ON r.id = i.run_id WHERE r.name = ? ORDER BY i.id DESC LIMIT 1',
      name,
    );
    const action = incident
      ? store.get<{ detail: { killed: number[] } }>(
          "SELECT detail FROM actions WHERE incident_id = ? AND kind = 'TERMINATE_DESCENDANT_PROCESS'",
          incident.id,
        )
      : undefined;
    const lines: string[] = [];
    if (incident) lines.push(`incident #${incident.id} ${incident.kind} → ${incident.state}`);
    if (action)
      lines.push(
        `killed pids ${action.detail.killed.join(', ')}; the agent got a failed tool result and finished its turn`,
      );
    if (scenario.steps.length > 1 && existsSync(argvLog)) {
      const resumed = readFileSync(argvLog, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as string[])
        .findLast((a) => a.includes('resume'));
      if (resumed)
        lines.push(
          `resumed with: ${resumed.slice(0, resumed.indexOf('resume') + 2).join(' ')} "${resumed.at(-1)!.split('\n')[0]}…"`,
        );
    }
    return { lines, incident: incident ? `${incident.kind} → ${incident.state}` : null };
  } finally {
    store.close();
  }
}
