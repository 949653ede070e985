import type { CommandModule } from 'yargs';
import { usageError } from '../exit-codes.ts';
import { readProcStat } from '../io/process/process-identity.ts';
import { agentAt, runningAgents, type RunningAgent } from '../io/session/agent-processes.ts';
import { repositoryRoot } from '../io/session/repository.ts';
import {
  attachedAgentContext,
  attachedAgentOptions,
  superviseAttachedAgent,
  type AttachedAgentArgs,
} from './agent/attached-agent.ts';
import { openAttachedRecording } from './agent/attached-recording.ts';

/**
 * `deadman attach [--pid PID]`: supervises a Codex or Claude Code process a person started
 * (the interactive TUI), from a second terminal: its hung tool subtrees are found and, with
 * --auto-recover, killed — only proven descendants, never the agent — and every incident is
 * recorded like a run's. Inactivity is read from the agent's session file growing.
 */

interface AttachArgs extends AttachedAgentArgs {
  pid?: number;
  once?: boolean;
}

export const attachCommand: CommandModule<object, AttachArgs> = {
  command: 'attach',
  describe: 'supervise a running Codex or Claude Code that deadman did not start (kills only its hung descendants)',
  builder: (y) =>
    attachedAgentOptions(y)
      .option('pid', {
        type: 'number',
        describe: "the agent's pid (default: the one agent working in this repository)",
      })
      .option('once', { type: 'boolean', describe: 'take one look, print it and exit' }),
  handler: async (args) => {
    const context = await attachedAgentContext(args);
    const agent = chooseAgent(args.pid, repositoryRoot(process.cwd()));
    const recording = openAttachedRecording(context);
    try {
      process.exitCode = await superviseAttachedAgent(agent, recording, context, {
        once: args.once === true,
        json: args['summary-json'] === true,
      });
    } finally {
      recording.close();
    }
  },
};

/** The agent to attach to: --pid, else the only one working in this repository. */
function chooseAgent(pid: number | undefined, root: string): RunningAgent {
  if (pid !== undefined) {
    const agent = agentAt(pid);
    if (agent) return agent;
    throw usageError(
      readProcStat(pid)
        ? `pid ${pid} is not a Codex or Claude Code process: give the agent's pid`
        : `no process ${pid}: give the pid of a running agent`,
    );
  }
  const agents = runningAgents(root);
  if (agents.length === 1) return agents[0]!;
  if (agents.length === 0)
    throw usageError(`no Codex or Claude Code process works in ${root}: start one, or give --pid`);
  const list = agents
    .map((a) => `  pid ${a.pid}  ${a.agent}  ${a.cwd}  ${a.cmdline.join(' ').slice(0, 80)}`)
    .join('\n');
  throw usageError(`${agents.length} agents work in ${root}; pick one with --pid:\n${list}`);
}
