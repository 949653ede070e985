import type { DemoPaths, Scenario } from './scenario-types.ts';

/** A command line built from its arguments: a `deadman run`, a fake agent's. */
export type CommandLine = (...args: string[]) => string[];

/**
 * The demo's agent-loop scenarios: failures the agent keeps "working" through — the same
 * failing command again and again, a usage limit, a result that never exits.
 */
export function agentLoopScenarios(p: DemoPaths, run: CommandLine, codex: CommandLine): Scenario[] {
  const limitConfig = `${p.dir}/usage-limit.toml`;
  const claude = (prompt: string) => [
    ...p.fakeAgent,
    'claude',
    '-p',
    prompt,
    '--output-format',
    'stream-json',
    '--verbose',
  ];
  return [repeatedFailure(run, codex), usageLimit(run, claude, limitConfig), finishedNotExited(run, claude)];
}

function repeatedFailure(run: CommandLine, codex: CommandLine): Scenario {
  return {
    title: 'The same failure, again and again',
    story: 'The agent reruns a failing test without changing anything, burning a turn each time.',
    steps: [
      {
        shown: 'deadman run --auto-recover -- codex exec --json "make the parser tests pass"',
        argv: run(
          '--name',
          'repeated-failure',
          '--adapter',
          'codex',
          '--auto-recover',
          '--poll',
          '250ms',
          '--stop-grace',
          '1s',
          '--',
          ...codex('make the parser tests pass'),
        ),
        env: { FAKE_AGENT_SCENARIO: 'repeat-failure' },
      },
    ],
    expect: { exitCode: 0, incident: 'REPEATED_FAILURE → RESOLVED' },
  };
}

function usageLimit(run: CommandLine, claude: (prompt: string) => string[], limitConfig: string): Scenario {
  return {
    title: 'A usage limit',
    story: "The agent hits its plan's usage limit; restarting it before the reset would only burn retries.",
    config: { file: limitConfig, text: '[usage_limit]\njitter = "0s"\n' },
    steps: [
      {
        shown:
          'deadman run -- claude -p "update the changelog" --output-format stream-json --verbose   # the limit resets in 2s',
        argv: run(
          '--name',
          'usage-limit',
          '--config',
          limitConfig,
          '--adapter',
          'claude',
          '--poll',
          '250ms',
          '--',
          ...claude('update the changelog'),
        ),
        env: { FAKE_AGENT_SCENARIO: 'usage-limit', FAKE_AGENT_LIMIT_RESET_S: '2' },
      },
    ],
    expect: { exitCode: 0, incident: 'USAGE_LIMIT → RESOLVED' },
  };
}

function finishedNotExited(run: CommandLine, claude: (prompt: string) => string[]): Scenario {
  return {
    title: 'Finished but never exits',
    story: 'Claude Code prints its result and then idles forever in stream-json mode.',
    steps: [
      {
        shown: 'deadman run --exit-grace 1s -- claude -p "summarise the diff" --output-format stream-json --verbose',
        argv: run(
          '--name',
          'finished',
          '--adapter',
          'claude',
          '--exit-grace',
          '1s',
          '--poll',
          '250ms',
          '--stop-grace',
          '1s',
          '--',
          ...claude('summarise the diff'),
        ),
        env: { FAKE_AGENT_SCENARIO: 'finish-no-exit' },
      },
    ],
    expect: { exitCode: 0, incident: 'FINISHED_NOT_EXITED → RESOLVED' },
  };
}
