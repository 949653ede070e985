import type { Argv, CommandModule } from 'yargs';

/**
 * One or two examples for every command's `--help`, written where they can be read side by side
 * (test/commands/help-examples.test.ts holds every command to having one).
 */
const EXAMPLES: Record<string, Array<[command: string, what: string]>> = {
  run: [
    [
      '$0 run --name fix-tests -- codex exec --json "Fix the flaky tests"',
      'supervise an agent: stalls detected, the session revived after a restart',
    ],
    [
      '$0 run --quiet --timeout 2h -- ./nightly-export.sh',
      'a cron job: nothing printed while all is well, stopped (exit 124) after two hours',
    ],
  ],
  demo: [['$0 demo', 'watch deadman catch seven kinds of failure, offline']],
  config: [['$0 config check', 'validate the config and show what deadman would use']],
  'config check': [
    [
      '$0 config check --quiet --config /etc/deadman/review.toml',
      'print only the problems of one file (nothing when it is valid)',
    ],
  ],
  'config schema': [['$0 config schema > deadman.schema.json', 'a JSON Schema for editors']],
  check: [['$0 check --quiet', 'audit every [jobs.NAME] by its evidence, printing only the jobs that need attention']],
  unit: [
    [
      '$0 unit --name fix-tests --user -- codex exec --json "Fix the flaky tests"',
      'print the systemd unit that would run it',
    ],
  ],
  install: [
    [
      '$0 install --name fix-tests --user -- codex exec --json "Fix the flaky tests"',
      'write and enable that unit, and say how to start and follow it',
    ],
  ],
  incidents: [['$0 incidents --since 24h --name fix-tests', 'the incidents of one run over the last day']],
  report: [
    ['$0 report latest --name fix-tests', 'the latest incident of a run: timeline, evidence, action, verification'],
  ],
  revive: [['$0 revive --dry-run', 'after a reboot: show which interrupted sessions would be resumed']],
  status: [['$0 status --json', 'every run as JSON; exit 1 when one needs attention']],
  notify: [
    [
      '$0 notify fail --name fix-tests --exit-code 1',
      'alert the sinks of [notify] that the run failed (an OnFailure= unit does this)',
    ],
  ],
  metrics: [
    ['$0 metrics > /var/lib/node_exporter/deadman.prom', 'every run as Prometheus text for the textfile collector'],
  ],
  health: [['$0 health --name fix-tests', 'exit 0 while the run is healthy (a liveness probe, HEALTHCHECK)']],
  replay: [['$0 replay silence', 'run a shipped trace through the real session on a simulated clock']],
  watch: [['$0 watch --once', 'the newest Codex or Claude session of this repository, once']],
  attach: [['$0 attach --pid 4242', 'supervise a Codex you started yourself']],
  agent: [['$0 agent -- codex', 'an interactive Codex, its hung tools found and its session revived']],
  approve: [['$0 approve 7', 'let the running deadman kill the hung subtree of incident 7']],
  deny: [['$0 deny 7', 'leave the hung subtree of incident 7 alone']],
  ack: [
    ['$0 ack 7 --note "disk filled; cleaned up"', 'settle escalated incident 7 by hand, so status stops asking for it'],
  ],
  completion: [
    ['$0 completion bash > ~/.local/share/bash-completion/completions/deadman', 'install the bash completion'],
  ],
};

/** The command with its examples added after what its own builder registers; `name` is its full name (`config check`). */
export function withExamples<T, U>(command: CommandModule<T, U>, name: string): CommandModule<T, U> {
  const { builder } = command;
  return {
    ...command,
    builder: (y: Argv<T>) => {
      let built = (typeof builder === 'function' ? builder(y) : y.options(builder ?? {})) as Argv<U>;
      for (const [example, what] of EXAMPLES[name] ?? []) built = built.example(example, what);
      return built;
    },
  };
}
