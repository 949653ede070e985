import type { Config } from '../core/config/config.ts';
import { LineSplitter } from '../core/adapters/lines.ts';
import { isHealthy, statusLine, type RunSnapshot } from '../core/status/service-status-line.ts';
import { passThrough } from '../io/passthrough.ts';
import { OutputTracker } from './output.ts';
import { Supervisor, type Stall } from './supervisor.ts';
import { startWatchdog, statusSender } from './watchdog.ts';
import { conclude, type RunResult } from './outcome.ts';
import type { RunSessionPorts } from './ports.ts';

/**
 * The life of one supervised command: spawn, pass output through, tick the supervisor, feed the
 * watchdog while healthy, handle stop signals and stalls, and work out the exit code.
 */

export interface RunPlan {
  argv: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  config: Config;
  onStall: 'withhold' | 'exit';
}

export async function runSession(plan: RunPlan, ports: RunSessionPorts): Promise<RunResult> {
  const { clock, notifier, logger, records, config } = { ...ports, config: plan.config };
  const spawned = await ports.spawn(plan.argv, { cwd: plan.cwd, env: plan.env, stdin: config.stdin });
  if (!spawned.ok) {
    logger.log('error', spawned.message);
    return { exitCode: spawned.exitCode, reraise: null, outcome: 'spawn-failed', reason: spawned.message, clean: false, sessionId: null };
  }
  const child = spawned.child;
  const startedAt = clock.monotonic();
  const tree = ports.makeTree(child.pid);
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

  const supervisor = new Supervisor({ monotonic: () => clock.monotonic(), tree, records, logger, consult: ports.consult }, {
    autoRecover: config.auto_recover,
    inactivityMs: config.inactivity,
    timeoutMs: config.timeout,
    hungTimeoutMs: config.hung_timeout,
    readyTimeoutMs: config.ready_timeout,
    ignore: config.ignore.map((pattern) => new RegExp(pattern)),
    verifyWindowMs: config.verify_window,
    agent: () => ports.adapter().name !== 'generic',
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
    adapter: ports.adapter().name,
    sessionId: output.state.sessionId,
    lastOutputAt: output.state.lastOutputAt,
    processCount: supervisor.history.processCount,
    evidence: ports.evidence.summary(),
    stall: supervisor.stall ? { message: supervisor.stall.message, action: supervisor.stall.kind === 'TIMEOUT' || !ready ? 'exit' : plan.onStall } : null,
    awaitingApproval: supervisor.awaitingApproval,
    recovering: supervisor.recovering,
    loopOverdue: clock.monotonic() - tickStartedAt > tickBudget,
  });
  const sendStatus = statusSender(notifier);
  const publishStatus = () => sendStatus(statusLine(snapshot()), clock.monotonic());

  const markReady = () => {
    if (ready) return;
    ready = true;
    supervisor.facts.ready = true;
    notifier.send('READY=1');
  };
  supervisor.facts.ready = ready;
  if (ready) notifier.send('READY=1');

  // With `adapter = "auto"` and a command line that named no agent, the first stdout line may
  // still reveal one (a wrapper script around codex): that line is handed to `sniff`.
  let sniffing = ports.sniff !== undefined;
  const linesWanted = readyPattern !== null || config.generic.session_pattern !== undefined || config.generic.turn_end_pattern !== undefined;
  const needsLines = () => sniffing || linesWanted || ports.adapter().name !== 'generic';
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
        if (!ready && readyPattern?.test(line.text)) markReady();
      }
    };
    const source = stream === 'stdout' ? child.stdout! : child.stderr!;
    const pipe = passThrough(source, fd, (chunk) => {
      output.chunk(chunk, clock.monotonic());
      if (needsLines()) handle(splitter.push(chunk));
    });
    const closed = new Promise<void>((resolve) => source.once('close', () => {
      if (needsLines()) handle(splitter.flush());
      resolve();
    }));
    return { pipe, closed };
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
      if (!ready && config.ready_port && (await ports.portAccepts(config.ready_port))) markReady();
      await supervisor.tick();
      publishStatus();
    } catch (error) {
      logger.log('error', `supervision tick failed: ${(error as Error).message}`);
    }
  };
  const pollTimer = setInterval(() => void tick(), config.poll);
  void tick();
  const stopWatchdog = startWatchdog(notifier, ports.watchdogUsec, () => ready && isHealthy(snapshot()));
  ports.evidence.start((message) => {
    supervisor.facts.evidenceDead = message;
    void tick();
  });

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
  const stopListening = ports.signals(onSignal);

  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  // A recovery may be in flight (the agent often exits right after its tool was killed).
  await ticking;
  supervisor.rootExited(exit.code);
  // Descendants that outlive the root would hold our pipes open and keep running unowned.
  await stopTree('SIGTERM');
  await Promise.all(streams.map((s) => s.closed));
  await Promise.all(streams.map((s) => s.pipe.drained()));
  clearInterval(pollTimer);
  stopWatchdog();
  ports.evidence.stop();
  stopListening();

  return conclude(exit, { stopSignal, stall: supervisor.stall, completed: ports.adapter().name === 'generic' || output.state.completed, sessionId: output.state.sessionId }, ports, publishStatus);
}
