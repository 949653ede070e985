import type { CommandModule } from 'yargs';
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { splitProgram } from '../core/adapters/program.ts';
import { DeadmanError, ExitCode, exitCodeForSignal, usageError } from '../exit-codes.ts';
import { readThreadChildren, threadChildrenAvailable } from '../io/process/proc-read.ts';
import { programFound, ptyCommand } from '../io/session/pty-command.ts';
import { listenForStopSignals } from '../io/stop-signals.ts';
import { attachedAgentContext, attachedAgentOptions, superviseAttachedAgent, type AttachedAgentArgs } from './attached-agent.ts';

/**
 * `deadman agent -- codex …`: the interactive agent in a pseudo-terminal made by `script` (no
 * native addon), supervised as `deadman attach` supervises one: hung tool subtrees found from
 * its tree and its session file, killed only with --auto-recover. The terminal stays the
 * agent's — raw mode, window size and its changes go through `script` — and the agent's exit
 * code is deadman's.
 */

interface AgentArgs extends AttachedAgentArgs {
  '--'?: Array<string | number>;
}

export const agentCommand: CommandModule<object, AgentArgs> = {
  command: 'agent',
  describe: 'deadman agent [options] -- codex …: an interactive Codex or Claude Code in a pseudo-terminal, supervised like attach (its exit code passed through)',
  builder: (y) => attachedAgentOptions(y),
  handler: async (args) => {
    const command = (args['--'] ?? []).map(String);
    const agent = splitProgram(command).agent;
    if (agent === null) throw usageError(`deadman agent runs Codex or Claude Code: put the agent after -- (deadman agent -- codex), got ${JSON.stringify(command.join(' ') || 'nothing')}`);
    if (!programFound(command[0]!, process.env)) throw new DeadmanError(`${command[0]}: command not found`, ExitCode.NOT_FOUND);
    const pty = ptyCommand(command, process.env);
    if (pty === null) {
      throw new DeadmanError('deadman agent needs `script` (util-linux on Linux, BSD on macOS) for a pseudo-terminal; without it, start the agent yourself and run deadman attach beside it', ExitCode.NOT_FOUND);
    }
    const context = await attachedAgentContext(args);
    const script = spawn(pty.argv[0]!, pty.argv.slice(1), { stdio: 'inherit', env: pty.env });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => script.on('exit', (code, signal) => resolve({ code, signal })));
    // A stop signal for deadman is the agent's: `script` passes it on and ends when the agent does.
    const stopForwarding = listenForStopSignals((signal) => void script.kill(signal));
    // The agent is found as `script`'s child in /proc (macOS has none): without it, the terminal still works, unsupervised.
    const supervised = threadChildrenAvailable();
    if (!supervised) process.stderr.write('deadman: the agent runs in a pseudo-terminal but is not supervised here: finding it under `script` needs /proc/<pid>/task/<tid>/children (Linux)\n');
    const agentPid = supervised ? await childOf(script.pid!, exited) : null;
    if (agentPid !== null) {
      await superviseAttachedAgent({ pid: agentPid, agent, cwd: process.cwd(), cmdline: command }, context, { once: false, signals: () => () => {}, quietWhileRunning: true });
    }
    const { code, signal } = await exited;
    stopForwarding();
    process.exitCode = code ?? exitCodeForSignal(signal ? constants.signals[signal] : 9);
  },
};

/** The agent: `script`'s one child, once it forked; null when `script` ended first. */
async function childOf(pid: number, exited: Promise<unknown>): Promise<number | null> {
  let gone = false;
  void exited.then(() => (gone = true));
  while (!gone) {
    const [child] = readThreadChildren(pid);
    if (child !== undefined) return child;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return null;
}
