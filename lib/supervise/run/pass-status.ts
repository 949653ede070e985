import type { Config } from '../../core/config/config.ts';
import { usageResetAt } from '../../core/detect/usage-limit.ts';
import { isHealthy, statusLine, type RunSnapshot } from '../../core/status/service-status-line.ts';
import type { OutputTracker } from '../output/output.ts';
import type { PassPorts } from '../ports.ts';
import type { Supervisor } from '../tick/supervisor.ts';
import type { Seen } from './outcome.ts';
import type { RunMachine } from './run-machine.ts';
import type { SerialTick } from './serial-tick.ts';
import { statusSender } from './watchdog.ts';

/**
 * What a pass tells of itself, read from its parts at the moment it is asked and never kept: the
 * status while it runs (systemd's STATUS=, the health port, the watchdog's yes or no) and what it
 * saw by its exit, which its outcome is judged by (outcome.ts).
 */

/** The parts of a pass these read; they write none of them. */
export interface PassStatusParts {
  readonly ports: PassPorts;
  readonly machine: RunMachine;
  readonly output: OutputTracker;
  readonly supervisor: Supervisor;
  readonly ticks: SerialTick;
}

export class PassStatus {
  private readonly sendStatus: (line: string) => void;
  /** A tick may wait on a recovery (kill grace) or the diagnostician; longer than all of that means the supervision itself is stuck. */
  private readonly tickBudget: number;

  constructor(
    private readonly pass: PassStatusParts,
    config: Config,
  ) {
    this.sendStatus = statusSender(pass.ports.notifier);
    this.tickBudget = 3 * config.poll + config.kill_grace + config.diagnose.timeout + 10_000;
  }

  /** The watchdog's question: fed only while the run is ready and its snapshot is healthy. */
  healthy(): boolean {
    return this.pass.machine.ready && isHealthy(this.snapshot());
  }

  publish(): void {
    const snapshot = this.snapshot();
    const line = statusLine(snapshot);
    this.sendStatus(line);
    this.pass.ports.health?.(
      this.pass.machine.ready && isHealthy(snapshot),
      line,
      Math.max(0, snapshot.now - snapshot.lastOutputAt),
    );
  }

  private snapshot(): RunSnapshot {
    const { ports, supervisor, output, machine, ticks } = this.pass;
    const now = ports.clock.monotonic();
    return {
      now,
      wallNow: ports.clock.wall(),
      adapter: ports.adapter().name,
      sessionId: output.state.sessionId,
      lastOutputAt: output.state.lastOutputAt,
      processCount: supervisor.history.processCount,
      evidence: ports.evidence.summary(),
      stall: supervisor.stall ? { message: supervisor.stall.message, action: machine.stallAction ?? 'exit' } : null,
      awaitingApproval: supervisor.awaitingApproval,
      recovering: supervisor.recovering,
      loopOverdue: ticks.sinceStart(now) > this.tickBudget,
    };
  }
}

/** What the pass saw by its exit, once its last lines were read and the tree is down. */
export function seenAtExit({ ports, machine, output, supervisor }: Omit<PassStatusParts, 'ticks'>): Seen {
  const { clock } = ports;
  const limit = output.state.usageLimit;
  return {
    stopSignal: machine.stopSignal,
    stall: supervisor.stall,
    sessionId: output.state.sessionId,
    completed: ports.adapter().name === 'generic' || output.state.completed,
    usageResetAt: limit && usageResetAt(limit, clock.monotonic(), clock.wall()),
    usageThrottle: limit?.throttle === true,
    turnFailed: output.state.failed,
    history: output.state.history,
    filesChanged: output.state.filesChanged,
    recovered: ports.resumed?.verdict === 'RESOLVED',
  };
}
