import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { AgentKind } from '../../core/adapters/program.ts';
import { exitCodeForSignal } from '../../exit-codes.ts';
import { childEnvironment } from '../../io/process/child-environment.ts';
import { readThreadChildren } from '../../io/process/proc-read.ts';
import { ptyCommand } from '../../io/session/pty-command.ts';
import { listenForStopSignals } from '../../io/service/stop-signals.ts';
import type { PassResult } from '../../supervise/run/outcome.ts';
import type { Context } from '../shared/command-context.ts';
import type { RunMarkerKeeper } from '../run/run-marker.ts';
import { watchAutoContinue } from './agent-continue.ts';
import { repeatEvery } from '../../io/time/clock.ts';
import { isSameProcessAlive, readProcStat } from '../../io/process/process-identity.ts';
import type { Logger } from '../../core/ports/logger.ts';
import { superviseAttachedAgent } from './attached-agent.ts';
import type { AttachedRecording } from './attached-recording.ts';

/**
 * One pass of `deadman agent`: the agent in the pseudo-terminal `script` makes, supervised as
 * an attached agent until it exits, and how its end leaves the revive marker.
 */

export interface TuiPass {
  name: string;
  cwd: string;
  supervised: boolean;
  marker: RunMarkerKeeper | null;
  context: Context;
  recording: AttachedRecording;
  logger: Logger;
  answeredLimitAt: number | null;
}

/**
 * One agent process in its pseudo-terminal, supervised until it exits. `continued`: deadman
 * stopped it because it did not continue by itself after its usage limit reset (agent-continue.ts).
 */
export async function superviseTui(argv: string[], agent: AgentKind, pass: TuiPass) {
  const { marker, context, logger } = pass;
  const pty = ptyCommand(argv, childEnvironment(process.env, marker?.runTag ?? null))!;
  const script = spawn(pty.argv[0]!, pty.argv.slice(1), { stdio: 'inherit', env: pty.env });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    script.on('exit', (code, signal) => resolve({ code, signal })),
  );
  // A stop signal for deadman is the agent's: `script` passes it on and ends when the agent does.
  let stopSignal: NodeJS.Signals | null = null;
  const stopForwarding = listenForStopSignals((signal) => {
    stopSignal ??= signal;
    script.kill(signal);
  });
  const agentPid = pass.supervised ? await childOf(script.pid!, exited) : null;
  const agentStart = agentPid === null ? undefined : readProcStat(agentPid)?.startTime;
  let continued: string | null = null;
  let limitAt: number | null = null;
  let stopWatching = () => {};
  const onSessionFile = (path: string) => {
    if (!marker) return; // without a marker there is no session to resume: the person continues it
    stopWatching = watchAutoContinue(path, {
      agent,
      graceMs: context.config.usage_limit.continue_grace,
      clock: context.clock,
      every: repeatEvery,
      pollMs: context.config.poll,
      logger,
      answeredLimitAt: pass.answeredLimitAt,
      onContinue: (reason, saidAt) => {
        [continued, limitAt] = [reason, saidAt];
        // The same process still (pid and start time): a pid reused since is never signalled.
        if (agentPid !== null && agentStart !== undefined && isSameProcessAlive(agentPid, agentStart))
          process.kill(agentPid, 'SIGTERM');
      },
    });
  };
  if (agentPid !== null) {
    await superviseAttachedAgent({ pid: agentPid, agent, cwd: pass.cwd, cmdline: argv }, pass.recording, context, {
      once: false,
      signals: () => () => {},
      quietWhileRunning: true,
      name: pass.name,
      noSummary: true,
      onSessionId: (sessionId) => marker?.sessionStarted(sessionId, logger),
      onSessionFile,
    });
  }
  const { code, signal } = await exited;
  stopWatching();
  stopForwarding();
  const exitCode = code ?? exitCodeForSignal(signal ? constants.signals[signal] : 9);
  return {
    exitCode,
    stopSignal: stopSignal as NodeJS.Signals | null,
    agentPid,
    continued: stopSignal ? null : (continued as string | null),
    limitAt: limitAt as number | null,
  };
}

/** How the agent's end leaves its marker: exit 0 is its person quitting (completed); a crash, a kill or a closed terminal is an interruption. */
export function agentEnd(
  exitCode: number,
  stopSignal: NodeJS.Signals | null,
): Pick<PassResult, 'clean' | 'outcome' | 'reason' | 'reraise'> {
  if (stopSignal)
    return { clean: false, outcome: 'stopped', reason: `deadman received ${stopSignal}`, reraise: stopSignal };
  if (exitCode === 0) return { clean: true, outcome: 'completed', reason: 'the agent exited 0', reraise: null };
  return { clean: false, outcome: 'failed', reason: `the agent exited ${exitCode}`, reraise: null };
}

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
