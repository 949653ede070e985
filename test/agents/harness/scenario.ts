import { tempDir } from '../../helpers/cli.ts';
import type { Turn } from '../model-server/script.ts';
import { agentCommand, type AgentCommand, type AgentOptions } from './agent-command.ts';
import type { Cli } from './clis.ts';
import { runAgent, type Started } from './deadman-run.ts';
import { startModelServer, type ModelServer } from './model-server.ts';
import { configWithAlerts } from './records.ts';

export interface Scenario {
  dir: string;
  server: ModelServer;
  agent: AgentCommand;
  flags: string[];
  run: Started;
}

export interface ScenarioOptions extends AgentOptions {
  prompt?: string;
  /** deadman.toml text beside the alert sink every scenario has. */
  config?: string;
  /** The command deadman runs around the agent's own command line. */
  wrap?: (argv: string[]) => string[];
}

export const PROMPT = 'Run the command the task needs, then report.';

/**
 * The loopback model scripted with `turns`, and `deadman run --config … --poll 250ms FLAGS --
 * <cli> <prompt>` against it, its alerts written to `dir/alerts.jsonl`.
 */
export async function runScenario(
  t: { after(fn: () => void): void },
  cli: Cli,
  turns: Turn[],
  flags: string[],
  options: ScenarioOptions = {},
): Promise<Scenario> {
  const dir = tempDir(t, `deadman-agents-${cli}-`);
  const server = await startModelServer(t, dir, turns);
  const agent = agentCommand(cli, dir, server.url, options.prompt ?? PROMPT, options);
  if (options.wrap) agent.argv = options.wrap(agent.argv);
  const allFlags = ['--config', configWithAlerts(dir, options.config), '--poll', '250ms', ...flags];
  return { dir, server, agent, flags: allFlags, run: runAgent(server, dir, agent, allFlags) };
}
