import type { CommandModule } from 'yargs';
import { formatDuration } from '../core/config/duration.ts';
import { usageError, ExitCode } from '../exit-codes.ts';
import { repeatEvery, systemClock } from '../io/clock.ts';
import { createLogger, redactedLogger } from '../io/log.ts';
import { terminateSubtree } from '../io/process/kill.ts';
import { createObserver } from '../io/process/observer.ts';
import { readProcStat } from '../io/process/process-identity.ts';
import { sessionDirs } from '../io/revive/session-files.ts';
import { agentAt, runningAgents, startTimeToWall, type RunningAgent } from '../io/session/agent-processes.ts';
import { attachedSessionFile } from '../io/session/attached-session-file.ts';
import { repositoryRoot } from '../io/session/repository.ts';
import { listenForStopSignals } from '../io/stop-signals.ts';
import { RecordingStore } from '../io/store/recording-store.ts';
import { attachSession } from '../supervise/attach-session.ts';
import { StepRecords } from '../supervise/step-records.ts';
import { databaseOption, loadContext, openStore, redactorFor, stateDirOption, type CommonArgs } from './command-context.ts';

/**
 * `deadman attach [--pid PID]`: supervises a Codex or Claude Code process a person started
 * (the interactive TUI), from a second terminal: its hung tool subtrees are found and, with
 * --auto-recover, killed — only proven descendants, never the agent — and every incident is
 * recorded like a run's. Inactivity is read from the agent's session file growing.
 */

interface AttachArgs extends CommonArgs {
  pid?: number;
  once?: boolean;
  'auto-recover'?: boolean;
  'hung-timeout'?: string;
  'kill-grace'?: string;
  poll?: string;
  'verify-window'?: string;
  inactivity?: string;
}

export const attachCommand: CommandModule<object, AttachArgs> = {
  command: 'attach',
  describe: 'supervise a running Codex or Claude Code that deadman did not start (kills only its hung descendants)',
  builder: (y) => y
    .option('database', databaseOption)
    .option('state-dir', stateDirOption)
    .option('pid', { type: 'number', describe: 'the agent\'s pid (default: the one agent working in this repository)' })
    .option('once', { type: 'boolean', describe: 'take one look, print it and exit' })
    .option('auto-recover', { type: 'boolean', describe: 'kill hung descendants (off by default: incidents wait for approval)' })
    .option('hung-timeout', { type: 'string', describe: 'a tool subtree with no CPU, I/O or process change for this long is hung (default 60s)' })
    .option('kill-grace', { type: 'string', describe: 'time between SIGTERM and SIGKILL for a hung subtree (default 5s)' })
    .option('poll', { type: 'string', describe: 'how often the agent\'s tree is observed (default 1s)' })
    .option('verify-window', { type: 'string', describe: 'how long a recovery has to show the session file growing (default 60s)' })
    .option('inactivity', { type: 'string', describe: 'report a stall after this long with no session-file write (default off: an interactive agent waits for its person)' }),
  handler: async (args) => {
    const flags = { auto_recover: args['auto-recover'], hung_timeout: args['hung-timeout'], kill_grace: args['kill-grace'], poll: args.poll, verify_window: args['verify-window'], inactivity: args.inactivity ?? 'off' };
    const context = await loadContext(args, Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined)));
    const { config } = context;
    const agent = chooseAgent(args.pid, repositoryRoot(process.cwd()));
    const logger = redactedLogger(createLogger(), redactorFor(config).text);
    const store = new RecordingStore({ path: context.paths.database, open: () => openStore(context), logger, wall: () => systemClock.wall(), monotonic: () => systemClock.monotonic() });
    try {
      process.exitCode = await attach(agent, config, store, logger, args.once === true);
    } finally {
      store.close();
    }
  },
};

/** The agent to attach to: --pid, else the only one working in this repository. */
function chooseAgent(pid: number | undefined, root: string): RunningAgent {
  if (pid !== undefined) {
    const agent = agentAt(pid);
    if (agent) return agent;
    throw usageError(readProcStat(pid) ? `pid ${pid} is not a Codex or Claude Code process: give the agent's pid` : `no process ${pid}: give the pid of a running agent`);
  }
  const agents = runningAgents(root);
  if (agents.length === 1) return agents[0]!;
  if (agents.length === 0) throw usageError(`no Codex or Claude Code process works in ${root}: start one, or give --pid`);
  const list = agents.map((a) => `  pid ${a.pid}  ${a.agent}  ${a.cwd}  ${a.cmdline.join(' ').slice(0, 80)}`).join('\n');
  throw usageError(`${agents.length} agents work in ${root}; pick one with --pid:\n${list}`);
}

async function attach(agent: RunningAgent, config: Awaited<ReturnType<typeof loadContext>>['config'], store: RecordingStore, logger: ReturnType<typeof createLogger>, once: boolean): Promise<number> {
  const monotonic = () => systemClock.monotonic();
  const startedAt = monotonic();
  const toWall = startTimeToWall();
  const rootStart = readProcStat(agent.pid)?.startTime ?? 0;
  const sessionFile = attachedSessionFile(agent.agent, agent.cwd, toWall(rootStart), sessionDirs(config.revive), () => systemClock.wall());
  const observer = createObserver({ rootPid: agent.pid, useCgroup: false, monotonic });
  const guards = { selfPid: process.pid, parentPid: process.ppid, rootPid: agent.pid };
  const records = new StepRecords(store, () => systemClock.wall(), () => monotonic() - startedAt);
  records.startRun({ name: `attach-${agent.agent}-${agent.pid}`, argv: agent.cmdline, cwd: agent.cwd, unit: null, invocationId: null, pid: process.pid, adapter: agent.agent, reviveOf: null });
  const out = (line: string) => process.stdout.write(`deadman attach: ${line}\n`);
  out(`${agent.agent} pid ${agent.pid} in ${agent.cwd} · auto-recover ${config.auto_recover ? 'on' : 'off'} · hung after ${formatDuration(config.hung_timeout)}`);
  const summary = await attachSession({
    rootPid: agent.pid, pollMs: config.poll, once,
    settings: {
      autoRecover: config.auto_recover, inactivityMs: config.inactivity, timeoutMs: 0, hungTimeoutMs: config.hung_timeout, readyTimeoutMs: 0,
      ignore: config.ignore.map((p) => new RegExp(p)), verifyWindowMs: config.verify_window, agent: () => true,
      activity: { windowMs: config.activity.window, cpuFloorMs: config.activity.cpu, ioFloorBytes: config.activity.io_bytes },
    },
  }, {
    clock: systemClock, logger, records, every: repeatEvery, signals: listenForStopSignals, print: out, startedAtWall: toWall,
    sessionFile: () => sessionFile.look(),
    tree: { observe: () => observer.observe(), terminate: (target) => terminateSubtree(target, { graceMs: config.kill_grace, observer, guards, monotonic }) },
  });
  out(`session file ${sessionFile.path ?? 'not found (no inactivity, no open tool: nothing is killed)'}`);
  const incidents = summary.incidents.length ? summary.incidents.join('; ') : 'no incident';
  out(`${summary.ended} after ${formatDuration(monotonic() - startedAt)}: ${incidents}${summary.killed.length ? `; killed [${summary.killed.join(' ')}]` : ''}`);
  records.finishRun({ exitCode: null, signal: null, outcome: summary.ended === 'stalled' ? 'stalled' : 'attached', reason: incidents });
  return summary.ended === 'stalled' ? ExitCode.ATTENTION : ExitCode.OK;
}
