import { printRunSummary } from './run/run-reporters.ts';
import type { CommandModule } from 'yargs';
import { splitProgram, type AgentKind } from '../core/adapters/program.ts';
import { DeadmanError, ExitCode, usageError } from '../exit-codes.ts';
import { threadChildrenAvailable } from '../io/process/proc-read.ts';
import { runName } from '../io/revive/run-name.ts';
import { programFound, ptyCommand } from '../io/session/pty-command.ts';
import type { Context } from './shared/command-context.ts';
import { recordRefusal, thisProcessRun } from './run/refused-run.ts';
import { RunMarkerKeeper } from './run/run-marker.ts';
import type { Logger } from '../core/ports/logger.ts';
import { CONTINUE_PROMPT } from './agent/agent-continue.ts';
import { agentEnd, superviseTui } from './agent/terminal-agent.ts';
import { attachedAgentContext, attachedAgentOptions, type AttachedAgentArgs } from './agent/attached-agent.ts';
import { openAttachedRecording, type AttachedRecording } from './agent/attached-recording.ts';

/**
 * `deadman agent -- codex …`: the interactive agent in a pseudo-terminal made by `script` (no
 * native addon), supervised as `deadman attach` supervises one: hung tool subtrees found from
 * its tree and its session file, killed only with --auto-recover. The terminal stays the
 * agent's — raw mode, window size and its changes go through `script` — and the agent's exit
 * code is deadman's. With a terminal on stdin it keeps a revive marker as `deadman run` does:
 * the session id comes from the agent's session file, and an interrupted session is resumed
 * the next time its command runs under `deadman agent` in a terminal (never by `deadman revive`).
 */

interface AgentArgs extends AttachedAgentArgs {
  '--'?: Array<string | number>;
}

export const agentCommand: CommandModule<object, AgentArgs> = {
  command: 'agent',
  describe:
    'deadman agent [options] -- codex …: an interactive Codex or Claude Code in a pseudo-terminal, supervised like attach (its exit code passed through)',
  builder: (y) => attachedAgentOptions(y),
  handler: async (args) => {
    const command = (args['--'] ?? []).map(String);
    const agent = splitProgram(command).agent;
    if (agent === null)
      throw usageError(
        `deadman agent runs Codex or Claude Code: put the agent after -- (deadman agent -- codex), got ${JSON.stringify(command.join(' ') || 'nothing')}`,
      );
    if (!programFound(command[0]!, process.env))
      throw new DeadmanError(`${command[0]}: command not found`, ExitCode.NOT_FOUND);
    if (ptyCommand(command, process.env) === null) {
      throw new DeadmanError(
        'deadman agent needs `script` (util-linux on Linux, BSD on macOS) for a pseudo-terminal; without it, start the agent yourself and run deadman attach beside it',
        ExitCode.NOT_FOUND,
      );
    }
    const context = await attachedAgentContext(args);
    const recording = openAttachedRecording(context);
    try {
      process.exitCode = await runAgent(command, agent, context, recording, args['summary-json'] === true);
    } finally {
      recording.close();
    }
  },
};

/** `json`: end with the summary as one JSON object (attach's and run's `--json`). */
async function runAgent(
  command: string[],
  agent: AgentKind,
  context: Context,
  recording: AttachedRecording,
  json: boolean,
): Promise<number> {
  const { logger, records } = recording;
  const cwd = process.cwd();
  const name = runName(context.config.name, null, command, agent, cwd);
  const { supervised, terminal } = supervisedHere(name, logger);
  // The marker's adapter is the agent's kind: the TUI's command line has none of the headless forms auto-detection reads.
  const config = { ...context.config, adapter: agent };
  const prepare = () =>
    RunMarkerKeeper.prepare({ name, command, cwd, config, context, records, logger, interactive: true });
  let marker = terminal ? await prepare() : null;
  const start = marker?.start ?? null;
  if (start?.refusal) {
    recordRefusal(
      records,
      thisProcessRun({ name, argv: command, cwd, unit: null, adapter: 'none', reviveOf: null }),
      start.refusal,
      logger,
    );
    return start.refusal.exitCode;
  }
  const passes = [recording];
  let argv = start?.argv ?? command;
  let answeredLimitAt: number | null = null;
  for (;;) {
    const tui = await superviseTui(argv, agent, {
      name,
      cwd,
      supervised,
      marker,
      context,
      recording: passes.at(-1)!,
      logger,
      answeredLimitAt,
    });
    answeredLimitAt = tui.limitAt;
    if (tui.continued && marker) {
      const resumed = await resumeAfterLimit(marker, tui.continued, prepare, logger);
      marker = resumed.marker;
      if (resumed.argv) {
        argv = resumed.argv;
        passes.push(openAttachedRecording(context));
        continue;
      }
    }
    return agentEnded(tui, marker, passes, { context, logger, json });
  }
}

/** The agent's end: its marker finished, the summary printed when an agent ran, the later passes' recordings closed. */
function agentEnded(
  tui: Awaited<ReturnType<typeof superviseTui>>,
  marker: RunMarkerKeeper | null,
  passes: AttachedRecording[],
  how: { context: Context; logger: Logger; json: boolean },
): number {
  marker?.finish(agentEnd(tui.exitCode, tui.stopSignal), false);
  if (tui.agentPid !== null)
    printRunSummary(
      {
        passes: passes.map((pass) => pass.records),
        database: how.context.paths.database,
        logger: how.logger,
        form: how.json ? 'json' : 'block',
      },
      tui.exitCode,
    );
  for (const pass of passes.slice(1)) pass.close();
  return tui.exitCode;
}

/**
 * Whether the agent is supervised here, and whether a revive marker is kept for it. The agent
 * is found as `script`'s child in /proc (macOS has none): without it, the terminal still works,
 * unsupervised. A marker is for a session a person comes back to, and an interactive one is
 * resumed only in a terminal.
 */
function supervisedHere(name: string, logger: Logger): { supervised: boolean; terminal: boolean } {
  const supervised = threadChildrenAvailable();
  if (!supervised)
    process.stderr.write(
      'deadman: the agent runs in a pseudo-terminal but is not supervised here: finding it under `script` needs /proc/<pid>/task/<tid>/children (Linux)\n',
    );
  const terminal = supervised && process.stdin.isTTY === true;
  if (supervised && !terminal)
    logger.log(
      'notice',
      `no terminal on stdin: no revive marker is kept for "${name}" (an interactive session is resumed only in a terminal)`,
    );
  return { supervised, terminal };
}

/**
 * A session left by the usage limit, marked interrupted so the revive path resumes it (its
 * budget, its checks): the new marker, and the command line that continues it, or null when it
 * could not be (said why).
 */
async function resumeAfterLimit(
  marker: RunMarkerKeeper,
  reason: string,
  prepare: () => Promise<RunMarkerKeeper>,
  logger: Logger,
): Promise<{ marker: RunMarkerKeeper | null; argv: string[] | null }> {
  const sessionId = marker.markedSession;
  marker.finish({ clean: false, outcome: 'usage-limit', reason, reraise: null }, false);
  const resume = await prepare();
  const { start: again } = resume;
  // Only the same session is continued: a refusal or a fresh start would not continue it.
  if (!again.refusal && again.sessionId !== null && again.sessionId === sessionId)
    return { marker: resume, argv: [...again.argv, CONTINUE_PROMPT] };
  logger.log(
    'warn',
    `could not resume session ${sessionId ?? '?'} to continue it: ${again.refusal?.reason ?? 'not resumable'}; continue it in the agent yourself`,
  );
  return { marker: again.refusal ? null : resume, argv: null };
}
