import { printRunSummary } from '../run/run-reporters.ts';
import type { Argv } from 'yargs';
import { formatDuration } from '../../core/time/duration.ts';
import type { Config } from '../../core/config/config.ts';
import { ExitCode } from '../../exit-codes.ts';
import { repeatEvery } from '../../io/time/clock.ts';
import { terminateSubtree } from '../../io/process/kill.ts';
import { createObserver } from '../../io/process/observer.ts';
import { readProcStat } from '../../io/process/process-identity.ts';
import { sessionDirs } from '../../io/revive/session-files.ts';
import { startTimeToWall, type RunningAgent } from '../../io/session/agent-processes.ts';
import { attachedSessionFile } from '../../io/session/attached-session-file.ts';
import type { Logger } from '../../core/ports/logger.ts';

import { listenForStopSignals } from '../../io/service/stop-signals.ts';
import { attachSession, type AttachSummary } from '../../supervise/run/attach-session.ts';
import type { SignalSource } from '../../supervise/ports.ts';
import type { AttachedRecording } from './attached-recording.ts';
import { thisProcessRun } from '../run/refused-run.ts';
import { loadContext, stateOptions, type CommonArgs, type Context } from '../shared/command-context.ts';

/**
 * What `deadman attach` and `deadman agent` share: their supervision options, and supervising
 * one agent process deadman did not spawn itself — its tree, its session file, its records —
 * until it exits (or after one look), with a summary at the end.
 */

export interface AttachedAgentArgs extends CommonArgs {
  'auto-recover'?: boolean;
  'hung-timeout'?: string;
  'kill-grace'?: string;
  poll?: string;
  'verify-window'?: string;
  inactivity?: string;
  'summary-json'?: boolean;
}

export function attachedAgentOptions<T>(y: Argv<T>): Argv<T & AttachedAgentArgs> {
  return y
    .options(stateOptions)
    .option('auto-recover', {
      type: 'boolean',
      describe: 'kill hung descendants (off by default: incidents wait for approval)',
    })
    .option('hung-timeout', {
      type: 'string',
      describe: 'a tool subtree with no CPU, I/O or process change for this long is hung (default 60s)',
    })
    .option('kill-grace', {
      type: 'string',
      describe: 'time between SIGTERM and SIGKILL for a hung subtree (default 5s)',
    })
    .option('poll', { type: 'string', describe: "how often the agent's tree is observed (default 1s)" })
    .option('verify-window', {
      type: 'string',
      describe: 'how long a recovery has to show the session file growing (default 60s)',
    })
    .option('inactivity', {
      type: 'string',
      describe:
        'report a stall after this long with no session-file write (default off: an interactive agent waits for its person)',
    })
    .option('summary-json', {
      type: 'boolean',
      describe: 'end with the run summary as one JSON object on stderr instead of the text block',
    }) as Argv<T & AttachedAgentArgs>;
}

/** The config with the flags over it; inactivity is off unless asked for. */
export function attachedAgentContext(args: AttachedAgentArgs): Promise<Context> {
  const flags = {
    auto_recover: args['auto-recover'],
    hung_timeout: args['hung-timeout'],
    kill_grace: args['kill-grace'],
    poll: args.poll,
    verify_window: args['verify-window'],
    inactivity: args.inactivity ?? 'off',
  };
  return loadContext(args, Object.fromEntries(Object.entries(flags).filter(([, value]) => value !== undefined)));
}

const ENDED: Record<AttachSummary['ended'], string> = {
  once: 'one look',
  'root-exited': 'the agent exited',
  signal: 'stopped',
  stalled: 'an incident escalated',
};

export interface AttachOptions {
  once: boolean;
  signals?: SignalSource;
  quietWhileRunning?: boolean;
  /** The run's name in the records (default `attach-<agent>-<pid>`). */
  name?: string;
  /** Told the session's id once its session file names it. */
  onSessionId?: (sessionId: string) => void;
  /** Told the session file's path once it is found (`deadman agent` watches it for a usage limit). */
  onSessionFile?: (path: string) => void;
  /** End with the summary as one JSON object on stderr. */
  json?: boolean;
  /** `deadman agent` prints the summary itself, with the agent's own exit code. */
  noSummary?: true;
}

/** Supervises `agent` until it exits (or once); returns attach's exit code (1 when an incident escalated). */
export async function superviseAttachedAgent(
  agent: RunningAgent,
  recording: AttachedRecording,
  context: Context,
  options: AttachOptions,
): Promise<number> {
  const { config, clock } = context;
  const { logger, records } = recording;
  const monotonic = () => clock.monotonic();
  const startedAt = monotonic();
  const toWall = startTimeToWall();
  const startTime = readProcStat(agent.pid)?.startTime ?? 0;
  const rootStartedAt = toWall(startTime);
  const sessionFile = attachedSessionFile(
    agent.agent,
    { pid: agent.pid, startTime },
    agent.cwd,
    rootStartedAt,
    sessionDirs(config.revive),
    () => clock.wall(),
  );
  const observer = createObserver({ rootPid: agent.pid, useCgroup: false, monotonic });
  const guards = { selfPid: process.pid, parentPid: process.ppid, rootPid: agent.pid };
  const name = options.name ?? `attach-${agent.agent}-${agent.pid}`;
  const row = thisProcessRun({
    name,
    argv: agent.cmdline,
    cwd: agent.cwd,
    unit: null,
    adapter: agent.agent,
    reviveOf: null,
  });
  records.startRun({ ...row, invocationId: null });
  const out = (line: string) => process.stderr.write(`deadman: ${line}\n`);
  out(
    `${agent.agent} pid ${agent.pid} in ${agent.cwd} · auto-recover ${config.auto_recover ? 'on' : 'off'} · hung after ${formatDuration(config.hung_timeout)}`,
  );
  const plan = {
    rootPid: agent.pid,
    rootStartedAt,
    pollMs: config.poll,
    once: options.once,
    settings: supervisorSettings(config),
  };
  const summary = await attachSession(plan, {
    // Under `deadman agent` the terminal is the agent's screen: status lines would tear through it.
    clock,
    logger,
    records,
    every: repeatEvery,
    signals: options.signals ?? listenForStopSignals,
    print: options.quietWhileRunning ? () => {} : out,
    sessionFile: sessionFileTelling(sessionFile, options),
    tree: {
      observe: () => observer.observe(),
      terminate: (target) => terminateSubtree(target, { graceMs: config.kill_grace, observer, guards, monotonic }),
    },
  });
  return attachEnded(summary, { sessionFile, startedAt, monotonic, records, logger, out }, context, options);
}

/** What attachedSessionFile returns: the session file of the attached agent, looked at each poll. */
type AttachedSessionFile = ReturnType<typeof attachedSessionFile>;

/** Looking at the session file, telling `options` its session id and path once they are known. */
function sessionFileTelling(
  sessionFile: AttachedSessionFile,
  options: AttachOptions,
): () => ReturnType<AttachedSessionFile['look']> {
  let sessionId: string | null = null;
  return () => {
    const look = sessionFile.look();
    if (sessionId === null && sessionFile.sessionId !== null) {
      options.onSessionId?.((sessionId = sessionFile.sessionId));
      if (sessionFile.path !== null) options.onSessionFile?.(sessionFile.path);
    }
    return look;
  };
}

/** What the attachment came to: said, recorded as the run's end, summed up; the exit code. */
function attachEnded(
  summary: AttachSummary,
  pass: {
    sessionFile: AttachedSessionFile;
    startedAt: number;
    monotonic: () => number;
    records: AttachedRecording['records'];
    logger: Logger;
    out: (line: string) => void;
  },
  context: Context,
  options: AttachOptions,
): number {
  const { sessionFile, startedAt, monotonic, records, logger, out } = pass;
  const incidents = summary.incidents.length ? summary.incidents.join('; ') : 'no incident';
  out(`session file ${sessionFile.path ?? 'not found (no open tool call seen: nothing was killed)'}`);
  out(
    `${ENDED[summary.ended]} after ${formatDuration(monotonic() - startedAt)}: ${incidents}${summary.killed.length ? `; killed [${summary.killed.join(' ')}]` : ''}`,
  );
  records.finishRun({
    exitCode: null,
    signal: null,
    outcome: summary.ended === 'stalled' ? 'stalled' : 'attached',
    reason: incidents,
  });
  const exitCode = summary.ended === 'stalled' ? ExitCode.ATTENTION : ExitCode.OK;
  if (!options.noSummary)
    printRunSummary(
      { passes: [records], database: context.paths.database, logger, form: options.json === true ? 'json' : 'block' },
      exitCode,
    );
  return exitCode;
}

function supervisorSettings(config: Config) {
  return {
    autoRecover: config.auto_recover,
    inactivityMs: config.inactivity,
    timeoutMs: 0,
    hungTimeoutMs: config.hung_timeout,
    readyTimeoutMs: 0,
    ignore: config.ignore.map((pattern) => new RegExp(pattern)),
    verifyWindowMs: config.verify_window,
    agent: () => true,
    activity: {
      windowMs: config.activity.window,
      cpuFloorMs: config.activity.cpu,
      ioFloorBytes: config.activity.io_bytes,
    },
    exitGraceMs: config.exit_grace,
    budget: { tokens: config.budget.tokens, costUsd: config.budget.cost_usd },
  };
}
