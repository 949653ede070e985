/**
 * The demo's scenarios: each one a real `deadman run` (or two) against a fake agent or a shell
 * job, chosen to show one failure deadman exists for. Plain data; `deadman demo` runs them.
 */

export type { DemoPaths, DemoStep, Scenario, ScenarioExpectation } from './scenario-types.ts';
import type { DemoPaths, Scenario } from './scenario-types.ts';
import { agentLoopScenarios, type CommandLine } from './agent-loop-scenarios.ts';

/** A test command waiting on a child that never returns: a two-level subtree, needing nothing but sh. */
const HUNG_TOOL = `sh -c 'sleep 600 & wait $!'`;

export function demoScenarios(p: DemoPaths): Scenario[] {
  const run = (...args: string[]) => [...p.deadman, 'run', '--database', p.database, ...args];
  const codex = (...args: string[]) => [...p.fakeAgent, 'codex', 'exec', '--json', ...args];
  return [
    hungTool(run, codex),
    greenButDead(p, run),
    hostDies(run, codex),
    silence(run, codex),
    ...agentLoopScenarios(p, run, codex),
  ];
}

function hungTool(run: CommandLine, codex: CommandLine): Scenario {
  return {
    title: 'A tool call hangs',
    story: 'The agent runs a test command whose child never returns; the agent waits forever.',
    steps: [
      {
        shown: 'deadman run --auto-recover --hung-timeout 2s -- codex exec --json "fix the tests"',
        argv: run(
          '--name',
          'hung-tool',
          '--adapter',
          'codex',
          '--auto-recover',
          '--hung-timeout',
          '2s',
          '--kill-grace',
          '1s',
          '--poll',
          '250ms',
          '--',
          ...codex('fix the tests'),
        ),
        env: { FAKE_AGENT_SCENARIO: 'hang-tool', FAKE_AGENT_TOOL: HUNG_TOOL },
      },
    ],
    expect: { exitCode: 0, incident: 'HUNG_PROCESS → RESOLVED' },
  };
}

function greenButDead(p: DemoPaths, run: CommandLine): Scenario {
  const exportDir = `${p.dir}/out/export`;
  const config = `${p.dir}/export.toml`;
  return {
    title: 'Green but dead',
    story: 'A nightly export exits 0 and leaves an empty CSV: every dashboard says green.',
    config: {
      file: config,
      text: `[[evidence]]\nname = "export"\nkind = "file"\nroot = "${exportDir}"\nglob = "${exportDir}/*.csv"\nnon_empty = true\nmax_age = "6h"\n`,
    },
    steps: [
      {
        shown: `deadman run --config export.toml -- sh -c ': > out/export/export-today.csv'`,
        argv: run(
          '--name',
          'nightly-export',
          '--config',
          config,
          '--',
          'sh',
          '-c',
          `mkdir -p ${exportDir} && : > ${exportDir}/export-today.csv`,
        ),
      },
    ],
    expect: { exitCode: 65, incident: 'EVIDENCE_FAILED → ESCALATED' },
  };
}

function hostDies(run: CommandLine, codex: CommandLine): Scenario {
  return {
    title: 'The host dies mid-turn',
    story: 'The agent is killed in the middle of a tool call (OOM, reboot, watchdog); its session is intact.',
    steps: [
      {
        shown: 'deadman run --name migrate -- codex exec --json -s workspace-write "migrate the schema"',
        argv: run(
          '--name',
          'migrate',
          '--adapter',
          'codex',
          '--',
          ...codex('-s', 'workspace-write', 'migrate the schema'),
        ),
        // A dying host takes the agent's tools with it: a short tool leaves no orphan that would
        // (rightly) keep the restart from starting a second agent on the session.
        env: { FAKE_AGENT_SCENARIO: 'crash', FAKE_AGENT_TOOL: 'true' },
      },
      {
        shown:
          'deadman run --name migrate -- codex exec --json -s workspace-write "migrate the schema"   # after the restart',
        argv: run(
          '--name',
          'migrate',
          '--adapter',
          'codex',
          '--',
          ...codex('-s', 'workspace-write', 'migrate the schema'),
        ),
        env: { FAKE_AGENT_SCENARIO: 'complete' },
      },
    ],
    expect: { exitCode: 0, incident: null },
  };
}

function silence(run: CommandLine, codex: CommandLine): Scenario {
  return {
    title: 'Silence',
    story: 'The agent stops talking and nothing in its process tree moves.',
    steps: [
      {
        shown: 'deadman run --inactivity 2s -- codex exec --json "refactor the parser"',
        argv: run(
          '--name',
          'silent',
          '--adapter',
          'codex',
          '--inactivity',
          '2s',
          '--poll',
          '250ms',
          '--stop-grace',
          '1s',
          '--',
          ...codex('refactor the parser'),
        ),
        env: { FAKE_AGENT_SCENARIO: 'silent' },
      },
    ],
    expect: { exitCode: 75, incident: 'OUTPUT_INACTIVITY → ESCALATED' },
  };
}

/** Null when the scenario showed what it promises, else one line on what happened instead. */
export function judgeScenario(
  scenario: Pick<Scenario, 'title' | 'expect'>,
  exitCode: number | string,
  incident: string | null,
): string | null {
  const { expect } = scenario;
  if (exitCode === expect.exitCode && incident === expect.incident) return null;
  const describe = (code: number | string, found: string | null) => `exit ${code} and ${found ?? 'no incident'}`;
  return `${scenario.title}: expected ${describe(expect.exitCode, expect.incident)}, got ${describe(exitCode, incident)}`;
}
