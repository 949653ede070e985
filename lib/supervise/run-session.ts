import type { Config } from '../core/config/config.ts';
import type { Adapter, Observation } from '../core/process/events.ts';
import { LineSplitter } from '../core/adapters/lines.ts';
import { isHealthy, statusLine, type RunSnapshot } from '../core/status/service-status-line.ts';
import { spawnChild } from '../io/process/child.ts';
import type { Clock } from '../io/clock.ts';
import type { Logger } from '../io/log.ts';
import type { Notifier } from '../io/notify.ts';
import { passThrough } from '../io/passthrough.ts';
import { OutputTracker } from './output.ts';
import type { RunRecords } from './records.ts';
import { Supervisor, type HungFinding, type HungQuery, type Stall, type TerminateResult } from './supervisor.ts';
import { startWatchdog, statusSender } from './watchdog.ts';
import { conclude } from './outcome.ts';
import type { Consult } from './diagnose-incident.ts';

/**
 * The life of one supervised command: spawn, pass output through, tick the supervisor, feed the
 * watchdog while healthy, handle stop signals and stalls, and work out the exit code.
 */

export interface TreeControl {
  observe(): Observation;
  findHung(observation: Observation, query: HungQuery): HungFinding | null;
  terminate(finding: HungFinding): Promise<TerminateResult>;
  /** Forwards `signal` to the root's group, waits up to `graceMs` (less if aborted), then SIGKILLs every owned process. */
  stopAll(signal: NodeJS.Signals, graceMs: number, abort: AbortSignal): Promise<void>;
}

export interface EvidenceGate {
  /** Starts periodic checks of `always` claims; `onDead` fires when one stays failing beyond its grace. */
  start(onDead: (message: string) => void): void;
  stop(): void;
  summary(): { alive: number; total: number; failing: string | null };
  /** Evaluates `on_exit` claims; null when all hold, else what failed. */
  checkOnExit(): Promise<string | null>;
}

export interface RunSessionPorts {
  clock: Clock;
  notifier: Notifier;
  logger: Logger;
  records: RunRecords;
  watchdogUsec: number | null;
  makeTree(rootPid: number, runTag: string): TreeControl;
  adapter(): Adapter;
  /** Present while the adapter may still be upgraded from the first stdout line; resolves true when it was. */
  sniff?: (firstLine: string) => Promise<boolean>;
  onSession(sessionId: string): void;
  evidence: EvidenceGate;
  portAccepts(port: number): Promise<boolean>;
  consult?: Consult | undefined;
}

export interface RunPlan {
  argv: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  config: Config;
  onStall: 'withhold' | 'exit';
  /** The run tag put into the child's environment; the revive marker keeps the same one. */
  runTag: string;
}

export type Outcome = 'completed' | 'failed' | 'green-but-dead' | 'stalled' | 'timeout' | 'stopped' | 'spawn-failed';

export interface RunResult {
  exitCode: number;
  /** Re-raise this signal on ourselves after cleanup, so the service manager sees a clean stop. */
  reraise: NodeJS.Signals | null;
  outcome: Outcome;
  reason: string;
  /** Exit 0 with the adapter's completion and evidence holding: the marker may be cleared. */
  clean: boolean;
  sessionId: string | null;
}

const STOP_SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];
/** After the owned tree is stopped, how long the pipes may stay open (held by a process deadman cannot stop). */
const PIPE_DRAIN_MS = 500;

export async function runSession(plan: RunPlan, ports: RunSessionPorts): Promise<RunResult> {
  const { clock, notifier, logger, records, config } = { ...ports, config: plan.config };
  const { runTag } = plan;
  const spawned = await spawnChild(plan.argv, { cwd: plan.cwd, env: plan.env, stdin: config.stdin, runTag });
  if (!spawned.ok) {
    logger.log('error', spawned.message);
    return { exitCode: spawned.exitCode, reraise: null, outcome: 'spawn-failed', reason: spawned.message, clean: false, sessionId: null };
  }
  const child = spawned.child;
  const startedAt = clock.monotonic();
  const tree = ports.makeTree(child.pid, runTag);
  const output = new OutputTracker(startedAt, ports.adapter, records, ports.onSession);
  const stopController = new AbortController();
  let stopSignal: NodeJS.Signals | null = null;
  let stopping: Promise<void> | null = null;
  let ready = !config.ready_pattern && !config.ready_port;
  const readyPattern = config.ready_pattern ? new RegExp(config.ready_pattern) : null;
  // A tick may wait on a recovery (kill grace) or the diagnostician; longer than all of that
  // together means the supervision itself is stuck, and the watchdog is withheld.
  const tickBudget = 3 * config.poll + config.kill_grace + config.diagnose.timeout + 10_000;
  let tickStartedAt = startedAt;

  const stopTree = (signal: NodeJS.Signals) => {
    stopping ??= tree.stopAll(signal, config.stop_grace, stopController.signal);
    return stopping;
  };

  const supervisor = new Supervisor({
    monotonic: () => clock.monotonic(),
    observe: () => tree.observe(),
    findHung: (o, q) => tree.findHung(o, q),
    terminate: (t) => tree.terminate(t),
    records,
    logger,
    consult: ports.consult,
  }, {
    autoRecover: config.auto_recover,
    inactivityMs: config.inactivity,
    timeoutMs: config.timeout,
    verifyWindowMs: config.verify_window,
    activity: { windowMs: config.activity.window, cpuFloorMs: config.activity.cpu, ioFloorBytes: config.activity.io_bytes },
  }, output, startedAt, (stall: Stall) => {
    records.update({ outcome: stall.kind === 'TIMEOUT' ? 'timeout' : 'stalled', reason: stall.message });
    publishStatus();
    // Before READY=1 systemd runs no watchdog for us, so withholding would change nothing.
    if (stall.kind !== 'TIMEOUT' && plan.onStall === 'withhold' && ready) {
      // systemd will kill and restart us; say so now rather than after the rest of WatchdogSec.
      notifier.send('WATCHDOG=trigger');
      return;
    }
    void stopTree('SIGTERM');
  });

  const snapshot = (): RunSnapshot => ({
    now: clock.monotonic(),
    wallNow: clock.wall(),
    adapter: ports.adapter().name,
    sessionId: output.state.sessionId,
    lastOutputAt: output.state.lastOutputAt,
    processCount: supervisor.processCount,
    evidence: ports.evidence.summary(),
    stall: supervisor.stall ? { message: supervisor.stall.message, action: supervisor.stall.kind === 'TIMEOUT' || !ready ? 'exit' : plan.onStall } : null,
    awaitingApproval: supervisor.awaitingApproval,
    recovering: supervisor.recovering,
    loopOverdue: clock.monotonic() - tickStartedAt > tickBudget,
  });
  const sendStatus = statusSender(notifier);
  const publishStatus = () => sendStatus(statusLine(snapshot()));

  const markReady = () => {
    if (ready) return;
    ready = true;
    notifier.send('READY=1');
  };
  if (ready) notifier.send('READY=1');

  // With `adapter = "auto"` and a command line that named no agent, the first stdout line may
  // still reveal one (a wrapper script around codex): that line is handed to `sniff`.
  let sniffing = ports.sniff !== undefined;
  const linesWanted = readyPattern !== null || config.generic.session_pattern !== undefined || config.generic.turn_end_pattern !== undefined;
  const needsLines = () => sniffing || linesWanted || ports.adapter().name !== 'generic';
  let lastChunkAt = clock.monotonic();
  const feed = (stream: 'stdout' | 'stderr', fd: number) => {
    const splitter = new LineSplitter(config.max_line_bytes);
    const handle = (lines: ReturnType<LineSplitter['push']>) => {
      const now = clock.monotonic();
      for (const line of lines) {
        if (sniffing && stream === 'stdout') {
          sniffing = false;
          void ports.sniff!(line.text).then((upgraded) => upgraded && output.line(stream, line, now));
        }
        output.line(stream, line, now);
        if (readyPattern?.test(line.text)) {
          output.state.readyAt = now;
          markReady();
        }
      }
    };
    const source = stream === 'stdout' ? child.stdout! : child.stderr!;
    const pipe = passThrough(source, fd, (chunk) => {
      lastChunkAt = clock.monotonic();
      output.chunk(chunk, lastChunkAt);
      if (needsLines()) handle(splitter.push(chunk));
    });
    const closed = new Promise<void>((resolve) => source.once('close', () => {
      if (needsLines()) handle(splitter.flush());
      resolve();
    }));
    return { pipe, closed, source };
  };
  const streams = [feed('stdout', 1), feed('stderr', 2)];

  let ticking: Promise<void> | null = null;
  const tick = () => {
    if (!ticking) tickStartedAt = clock.monotonic();
    ticking ??= tickOnce().finally(() => (ticking = null));
    return ticking;
  };
  const tickOnce = async () => {
    try {
      await supervisor.tick();
      if (!ready) {
        if (config.ready_port && (await ports.portAccepts(config.ready_port))) markReady();
        else if (clock.monotonic() - startedAt > config.ready_timeout) supervisor.escalateNew('NOT_READY', `not ready after ${Math.round(config.ready_timeout / 1000)}s`);
      }
      publishStatus();
    } catch (error) {
      logger.log('error', `supervision tick failed: ${(error as Error).message}`);
    }
  };
  const pollTimer = setInterval(() => void tick(), config.poll);
  void tick();
  const stopWatchdog = startWatchdog(notifier, ports.watchdogUsec, () => ready && isHealthy(snapshot()));
  ports.evidence.start((message) => supervisor.escalateNew('EVIDENCE_STALE', message));

  const onSignal = (signal: NodeJS.Signals) => {
    if (stopSignal) {
      logger.log('warn', `second ${signal}: killing the whole tree now`);
      stopController.abort();
      return;
    }
    stopSignal = signal;
    logger.log('notice', `${signal}: stopping (grace ${Math.round(config.stop_grace / 1000)}s)`);
    notifier.send('STOPPING=1');
    void stopTree(signal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);

  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  // A recovery may be in flight (the agent often exits right after its tool was killed).
  await ticking;
  supervisor.rootExited(exit.code);
  // Descendants that outlive the root would hold our pipes open and keep running unowned.
  await stopTree('SIGTERM');
  // Whatever still holds the pipes is not ours to stop (or could not be): once they have been
  // quiet for PIPE_DRAIN_MS, stop waiting for it. Never while bytes still come: output the
  // child wrote before it exited may still sit in the pipe behind a slow parse.
  await untilClosedOrQuiet(streams, () => lastChunkAt, PIPE_DRAIN_MS, clock);
  for (const s of streams) s.source.destroy();
  await Promise.all(streams.map((s) => s.closed));
  await Promise.all(streams.map((s) => s.pipe.drained()));
  clearInterval(pollTimer);
  stopWatchdog();
  ports.evidence.stop();
  for (const signal of STOP_SIGNALS) process.off(signal, onSignal);

  return conclude(exit, { stopSignal, stall: supervisor.stall, completed: ports.adapter().name === 'generic' || output.state.completed, sessionId: output.state.sessionId }, ports, publishStatus);
}

/** Resolves when every stream closed, or when none delivered a byte for `quietMs`. */
async function untilClosedOrQuiet(streams: ReadonlyArray<{ closed: Promise<void> }>, lastChunkAt: () => number, quietMs: number, clock: Clock): Promise<void> {
  let allClosed = false;
  const closed = Promise.all(streams.map((s) => s.closed)).then(() => (allClosed = true));
  for (;;) {
    const wait = Math.max(1, lastChunkAt() + quietMs - clock.monotonic());
    await Promise.race([closed, new Promise<void>((resolve) => setTimeout(resolve, wait).unref())]);
    if (allClosed || clock.monotonic() - lastChunkAt() >= quietMs) return;
  }
}
