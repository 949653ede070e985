import { stalledOutcome } from '../../core/signals/registry.ts';
import type { Config } from '../../core/config/config.ts';
import type { RunPlan } from './run-plan.ts';
import { OutputTracker } from '../output/output.ts';
import type { Supervisor, Stall } from '../tick/supervisor.ts';
import { LiveConfig } from './live-config.ts';
import { startWatchdog } from './watchdog.ts';
import { conclude, type PassResult } from './outcome.ts';
import { signalErrorCode } from '../../core/incident/error-codes.ts';
import { RunMachine, stallPolicy, type RunAction, type RunEvent, type RunEventDetail } from './run-machine.ts';
import type { RunFacts } from '../tick/detectors.ts';
import { joinFirst, SerialTick } from './serial-tick.ts';
import { feedStreams, type RunStreams } from '../output/run-streams.ts';
import type { ProcessTree, PassPorts, SpawnedChild } from '../ports.ts';
import { PassStatus, seenAtExit, type PassStatusParts } from './pass-status.ts';
import { createPassSupervisor, passFacts, type PassSupervisorParts } from './pass-supervisor.ts';

/**
 * The life of one supervised command, as the run machine's actions: spawn, pass output
 * through, tick the supervisor, feed the watchdog while healthy, handle stop signals and
 * stalls, and work out the exit code. Every edge is a port, so a whole run executes under
 * fakes in a unit test.
 */

export type { RunPlan };

export async function runPass(plan: RunPlan, ports: PassPorts, machine = new RunMachine()): Promise<PassResult> {
  const spawned = await ports.spawn(plan.argv, {
    cwd: plan.cwd,
    env: plan.env,
    stdin: plan.config.stdin,
    runTag: plan.runTag,
  });
  if (!spawned.ok) {
    machine.dispatch('spawn_failed');
    return reportSpawnFailure(spawned, ports);
  }
  return new SupervisedPass(plan, ports, spawned.child, machine).run();
}

/** The `report_spawn_failure` action: the command never started, so there is nothing else to stop or record. */
function reportSpawnFailure(
  failure: { exitCode: number; message: string },
  ports: Pick<PassPorts, 'logger'>,
): PassResult {
  ports.logger.log('error', failure.message);
  return {
    exitCode: failure.exitCode,
    reraise: null,
    outcome: 'spawn-failed',
    reason: failure.message,
    clean: false,
    sessionId: null,
  };
}

/**
 * One deadman pass: one spawned command supervised from its start to its exit (a resume or a
 * respawn is the next pass, pass-loop.ts). Not an agent session: a pass may start one, resume
 * one, or run a command that has none. Where the run stands is the run machine's; the pass holds
 * what it is made of (tree, output, supervisor, streams) and the handles of effects in flight.
 * Its parts are public and read-only so that what is wired from them beside it can read them
 * (pass-status.ts, pass-supervisor.ts).
 */
class SupervisedPass implements PassStatusParts, PassSupervisorParts {
  private readonly config: Config;
  readonly live: LiveConfig;
  readonly startedAt: number;
  readonly tree: ProcessTree;
  readonly output: OutputTracker;
  readonly supervisor: Supervisor;
  private readonly streams: RunStreams;
  readonly ticks: SerialTick;
  private readonly stopController = new AbortController();
  private readonly status: PassStatus;
  private readonly cleanups: Array<() => void> = [];
  /** Kept till the pass's end, past the cleanups: the end's own waits (git, the evidence check) must not starve systemd's watchdog. */
  private stopWatchdog = () => {};
  readonly facts: RunFacts;
  /** Stops the tree with the signal the machine says (`treeStop`); a later stop (a signal, the run's end) joins the first. */
  private readonly stopTree = joinFirst(() =>
    this.tree.stopAll(this.machine.treeStop ?? 'SIGTERM', this.live.current.stop_grace, this.stopController.signal),
  );

  constructor(
    readonly plan: RunPlan,
    readonly ports: PassPorts,
    private readonly child: SpawnedChild,
    readonly machine: RunMachine,
  ) {
    this.config = plan.config;
    this.live = plan.live ?? new LiveConfig(plan.config);
    this.startedAt = ports.clock.monotonic();
    this.ticks = new SerialTick(
      () => this.tickOnce(),
      () => ports.clock.monotonic(),
    );
    this.tree = ports.makeTree(child.pid, plan.runTag);
    this.facts = passFacts(machine);
    this.output = new OutputTracker(this.startedAt, ports.adapter, ports.records, ports);
    this.supervisor = createPassSupervisor(this, (stall) =>
      this.send('stall', { stallAction: stallPolicy(stall, plan.onStall, machine.ready) }),
    );
    this.status = new PassStatus(this, this.config);
    this.streams = this.passOutputThrough();
  }

  async run(): Promise<PassResult> {
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      this.child.once('exit', (code, signal) => resolve({ code, signal }));
    });
    this.send('spawned');
    const exited = await exit;
    // A recovery may be in flight (the agent often exits right after its tool was killed).
    await this.ticks.settled();
    // Its last lines (a usage limit, its result) may not have been read when the exit is reported.
    await this.streams.readWritten();
    await this.supervisor.detectAtExit();
    this.supervisor.rootExited(exited.code);
    await this.carryOut('child_exited');
    const seen = seenAtExit(this);
    try {
      const concluded = await conclude(exited, seen, this.ports, () => this.status.publish());
      // A git still running for the last tool end answers into this pass (its trace), not after it.
      await this.output.fingerprinted();
      return { ...concluded, outputTail: this.output.lastLines() };
    } finally {
      this.stopWatchdog();
    }
  }

  /** Feeds one event to the run machine and starts the action its table names; what that action started goes on by itself. */
  private send(event: RunEvent, detail: RunEventDetail = {}): void {
    void this.carryOut(event, detail);
  }

  /** As send, and resolves when the action's effect did (`conclude`). */
  private carryOut(event: RunEvent, detail: RunEventDetail = {}): Promise<void> | void {
    const action = this.machine.dispatch(event, detail);
    if (action && action !== 'report_spawn_failure') return this.actions[action]();
  }

  private readonly actions: Record<Exclude<RunAction, 'report_spawn_failure'>, () => Promise<void> | void> = {
    start_supervising: () => this.startSupervising(),
    announce_ready: () => this.ports.notifier.send('READY=1'),
    supervise: () => void this.ticks.run(),
    publish_status: () => this.status.publish(),
    apply_stall_policy: () => this.applyStallPolicy(this.supervisor.stall!),
    stop_tree: () => {
      this.ports.logger.log(
        'notice',
        `${this.machine.stopSignal}: stopping (grace ${Math.round(this.live.current.stop_grace / 1000)}s)`,
      );
      this.ports.notifier.send('STOPPING=1');
      void this.stopTree();
    },
    kill_tree_now: () => {
      this.ports.logger.log('warn', `second ${this.machine.stopSignal}: killing the whole tree now`);
      this.stopController.abort();
    },
    conclude: () => this.stopLeftovers(),
  };

  /** Descendants that outlive the root would hold our pipes open and keep running unowned. */
  private async stopLeftovers(): Promise<void> {
    await this.stopTree();
    await this.streams.finished();
    for (const cleanup of this.cleanups) cleanup();
  }

  /** The child's output goes through from the start; a line matching the ready pattern makes the run ready. */
  private passOutputThrough(): RunStreams {
    const readyPattern = this.config.ready_pattern ? new RegExp(this.config.ready_pattern) : null;
    return feedStreams(this.child, this.config, this.ports, this.output, (line, now) => {
      if (!readyPattern?.test(line.text)) return;
      this.output.ready(now);
      if (!this.machine.ready) this.send('ready');
    });
  }

  private startSupervising(): void {
    const { ports, config } = this;
    if (!config.ready_pattern && !config.ready_port) this.send('ready');
    this.cleanups.push(ports.every(config.poll, () => this.send('tick')));
    this.send('tick');
    this.stopWatchdog = startWatchdog(ports.notifier, this.plan.watchdogUsec ?? null, ports.every, () =>
      this.status.healthy(),
    );
    ports.evidence.start((message) => {
      this.facts.evidenceDead = message;
      this.send('tick');
    });
    this.cleanups.push(
      () => ports.evidence.stop(),
      ports.signals((signal) => this.send('signal', { signal })),
    );
  }

  private async tickOnce(): Promise<void> {
    const { ports, config } = this;
    try {
      if (!this.machine.ready && config.ready_port && (await ports.portAccepts(config.ready_port))) {
        // What runs once the port accepts is the server: persistent, never a hung tool.
        this.output.ready(ports.clock.monotonic());
        this.send('ready');
      }
      await this.supervisor.tick();
      this.send(this.supervisor.recovering ? 'recovery_started' : 'recovery_ended');
      this.status.publish();
    } catch (error) {
      ports.logger.log('error', `supervision tick failed: ${(error as Error).message}`);
    }
  }

  private applyStallPolicy(stall: Stall): void {
    const action = this.machine.stallAction!;
    // A finished run's outcome is its verdict, known only once the tree is down (conclude records it).
    if (action === 'withhold' || action === 'exit')
      this.ports.records.update({
        outcome: stalledOutcome(stall.kind),
        reason: stall.message,
        error_code: signalErrorCode(stall.kind),
      });
    this.status.publish();
    // systemd will kill and restart us; say so now rather than after the rest of WatchdogSec, once the
    // stall's alert has left (bounded by notify.timeout; the pings stay withheld meanwhile).
    if (action === 'withhold')
      void (this.ports.alerts?.settled() ?? Promise.resolve()).then(() => this.ports.notifier.send('WATCHDOG=trigger'));
    // With the signal the machine chose for the action (an agent at its usage limit is interrupted, not killed).
    else void this.stopTree();
  }
}
