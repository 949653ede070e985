/**
 * The demo's scenarios: each one a real `deadman run` (or two) against a fake agent or a shell
 * job, chosen to show one failure deadman exists for. Plain data; `deadman demo` runs them.
 */

export interface DemoPaths {
  /** `node bin/deadman.js`, as argv. */
  deadman: string[];
  /** `node dist/lib/demo/fake-agent.js`, as argv. */
  fakeAgent: string[];
  dir: string;
  database: string;
}

export interface DemoStep {
  /** What a person would type (shown), with the fake agent called by its part. */
  shown: string;
  argv: string[];
  env?: Record<string, string>;
}

/** What the last step must end with, so a demo that did not show its stall says so and fails. */
export interface ScenarioExpectation {
  exitCode: number;
  /** The run's newest incident, as `KIND → STATE`; null when the scenario records none. */
  incident: string | null;
}

export interface Scenario {
  title: string;
  story: string;
  steps: DemoStep[];
  expect: ScenarioExpectation;
  /** Config file text written before the steps, when the scenario needs one. */
  config?: { file: string; text: string };
}

/** A test command waiting on a child that never returns: a two-level subtree, needing nothing but sh. */
const HUNG_TOOL = `sh -c 'sleep 600 & wait $!'`;

export function demoScenarios(p: DemoPaths): Scenario[] {
  const run = (...args: string[]) => [...p.deadman, 'run', '--database', p.database, ...args];
  const codex = (...args: string[]) => [...p.fakeAgent, 'codex', 'exec', '--json', ...args];
  const exportDir = `${p.dir}/out/export`;
  const config = `${p.dir}/export.toml`;
  const limitConfig = `${p.dir}/usage-limit.toml`;
  const claude = (prompt: string) => [...p.fakeAgent, 'claude', '-p', prompt, '--output-format', 'stream-json', '--verbose'];
  return [
    {
      title: 'A tool call hangs',
      story: 'The agent runs a test command whose child never returns; the agent waits forever.',
      steps: [{
        shown: 'deadman run --auto-recover --hung-timeout 2s -- codex exec --json "fix the tests"',
        argv: run('--name', 'hung-tool', '--adapter', 'codex', '--auto-recover', '--hung-timeout', '2s', '--kill-grace', '1s', '--poll', '250ms', '--', ...codex('fix the tests')),
        env: { FAKE_AGENT_SCENARIO: 'hang-tool', FAKE_AGENT_TOOL: HUNG_TOOL },
      }],
      expect: { exitCode: 0, incident: 'HUNG_PROCESS → RESOLVED' },
    },
    {
      title: 'Green but dead',
      story: 'A nightly export exits 0 and leaves an empty CSV: every dashboard says green.',
      config: {
        file: config,
        text: `[[evidence]]\nname = "export"\nkind = "file"\nroot = "${exportDir}"\nglob = "${exportDir}/*.csv"\nnon_empty = true\nmax_age = "6h"\n`,
      },
      steps: [{
        shown: `deadman run --config export.toml -- sh -c ': > out/export/export-today.csv'`,
        argv: run('--name', 'nightly-export', '--config', config, '--', 'sh', '-c', `mkdir -p ${exportDir} && : > ${exportDir}/export-today.csv`),
      }],
      expect: { exitCode: 65, incident: 'EVIDENCE_FAILED → ESCALATED' },
    },
    {
      title: 'The host dies mid-turn',
      story: 'The agent is killed in the middle of a tool call (OOM, reboot, watchdog); its session is intact.',
      steps: [
        {
          shown: 'deadman run --name migrate -- codex exec --json -s workspace-write "migrate the schema"',
          argv: run('--name', 'migrate', '--adapter', 'codex', '--', ...codex('-s', 'workspace-write', 'migrate the schema')),
          // A dying host takes the agent's tools with it: a short tool leaves no orphan that would
          // (rightly) keep the restart from starting a second agent on the session.
          env: { FAKE_AGENT_SCENARIO: 'crash', FAKE_AGENT_TOOL: 'true' },
        },
        {
          shown: 'deadman run --name migrate -- codex exec --json -s workspace-write "migrate the schema"   # after the restart',
          argv: run('--name', 'migrate', '--adapter', 'codex', '--', ...codex('-s', 'workspace-write', 'migrate the schema')),
          env: { FAKE_AGENT_SCENARIO: 'complete' },
        },
      ],
      expect: { exitCode: 0, incident: null },
    },
    {
      title: 'Silence',
      story: 'The agent stops talking and nothing in its process tree moves.',
      steps: [{
        shown: 'deadman run --inactivity 2s -- codex exec --json "refactor the parser"',
        argv: run('--name', 'silent', '--adapter', 'codex', '--inactivity', '2s', '--poll', '250ms', '--stop-grace', '1s', '--', ...codex('refactor the parser')),
        env: { FAKE_AGENT_SCENARIO: 'silent' },
      }],
      expect: { exitCode: 75, incident: 'OUTPUT_INACTIVITY → ESCALATED' },
    },
    {
      title: 'The same failure, again and again',
      story: 'The agent reruns a failing test without changing anything, burning a turn each time.',
      steps: [{
        shown: 'deadman run --auto-recover -- codex exec --json "make the parser tests pass"',
        argv: run('--name', 'repeated-failure', '--adapter', 'codex', '--auto-recover', '--poll', '250ms', '--stop-grace', '1s', '--', ...codex('make the parser tests pass')),
        env: { FAKE_AGENT_SCENARIO: 'repeat-failure' },
      }],
      expect: { exitCode: 0, incident: 'REPEATED_FAILURE → RESOLVED' },
    },
    {
      title: 'A usage limit',
      story: 'The agent hits its plan\'s usage limit; restarting it before the reset would only burn retries.',
      config: { file: limitConfig, text: '[usage_limit]\njitter = "0s"\n' },
      steps: [{
        shown: 'deadman run -- claude -p "update the changelog" --output-format stream-json --verbose   # the limit resets in 2s',
        argv: run('--name', 'usage-limit', '--config', limitConfig, '--adapter', 'claude', '--poll', '250ms', '--', ...claude('update the changelog')),
        env: { FAKE_AGENT_SCENARIO: 'usage-limit', FAKE_AGENT_LIMIT_RESET_S: '2' },
      }],
      expect: { exitCode: 0, incident: 'USAGE_LIMIT → RESOLVED' },
    },
    {
      title: 'Finished but never exits',
      story: 'Claude Code prints its result and then idles forever in stream-json mode.',
      steps: [{
        shown: 'deadman run --exit-grace 1s -- claude -p "summarise the diff" --output-format stream-json --verbose',
        argv: run('--name', 'finished', '--adapter', 'claude', '--exit-grace', '1s', '--poll', '250ms', '--stop-grace', '1s', '--', ...claude('summarise the diff')),
        env: { FAKE_AGENT_SCENARIO: 'finish-no-exit' },
      }],
      expect: { exitCode: 0, incident: 'FINISHED_NOT_EXITED → RESOLVED' },
    },
  ];
}

/** Null when the scenario showed what it promises, else one line on what happened instead. */
export function judgeScenario(scenario: Pick<Scenario, 'title' | 'expect'>, exitCode: number | string, incident: string | null): string | null {
  const { expect } = scenario;
  if (exitCode === expect.exitCode && incident === expect.incident) return null;
  const describe = (code: number | string, found: string | null) => `exit ${code} and ${found ?? 'no incident'}`;
  return `${scenario.title}: expected ${describe(expect.exitCode, expect.incident)}, got ${describe(exitCode, incident)}`;
}
