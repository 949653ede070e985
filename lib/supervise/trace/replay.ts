import type { StoreSink } from '../../io/store/recording-store.ts';
import { ResumedVerification } from '../tick/resumed-verification.ts';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { createAdapter } from '../../core/adapters/index.ts';
import { configSchema, type Config } from '../../core/config/config.ts';
import { processKey, type Observation } from '../../core/process/process-info.ts';
import type { Adapter } from '../../core/adapters/agent-events.ts';
import type { Trace, TraceEventOf } from '../../core/session/trace.ts';
import { tracePasses, type TracePass } from '../../core/session/trace-passes.ts';
import { formatArgv } from '../../core/process/format-argv.ts';
import { traceClock } from '../../core/session/replay-report.ts';
import { ExitCode } from '../../exit-codes.ts';
import { supervisePasses, type PassReason, type UsageWaitEnd } from '../run/pass-loop.ts';
import type { RunResult } from '../run/outcome.ts';
import { StepRecords, type RecordedStep } from '../records/step-records.ts';
import { runSession } from '../run/run-session.ts';
import type { LoopClock, RunSessionPorts, SpawnedChild, TerminateTarget } from '../ports.ts';

/**
 * Replays a trace through the real run session — the same detectors, diagnosis, policy,
 * recovery and verification — with every edge simulated: the clock is the trace's, each
 * recorded observation is what one tick sees, output is written into the child's pipes at its
 * time, and a kill removes the subtree from every later observation instead of signalling.
 * A trace of several passes (a resume, a respawn, a usage wait) runs through the same pass
 * loop as `deadman run`.
 */

export interface ReplayOutcome {
  steps: RecordedStep[];
  /** The passes after the first and the usage waits, as the replayed loop took them. */
  notes: ReplayNote[];
  /** The last pass's result; null when the trace holds no pass the loop reached. */
  result: RunResult | null;
  /** What deadman would have exited with, after every pass. */
  exitCode: number;
  /** Simulated milliseconds from the start to the end. */
  durationMs: number;
  /** Signals the simulated tree "sent": every one a replay, none real. */
  stops: NodeJS.Signals[];
}

export interface ReplayNote {
  at: number;
  text: string;
}

/** How many event-loop turns a tick may take (diagnosis, simulated kill, records); no timer is involved. */
const SETTLE_TURNS = 20;

async function settle(): Promise<void> {
  for (let i = 0; i < SETTLE_TURNS; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

class SimulatedChild extends EventEmitter implements SpawnedChild {
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  constructor(readonly pid: number) {
    super();
  }

  exit(code: number | null, signal: NodeJS.Signals | null): void {
    this.stdout.end();
    this.stderr.end();
    this.emit('exit', code, signal);
  }
}

export function replayConfig(trace: Trace): { config: Config; onStall: 'withhold' | 'exit' } {
  const { on_stall: onStall = 'exit', budget, ...settings } = trace.header.settings;
  const defaults = configSchema.parse({});
  return { config: { ...defaults, ...settings, budget: budget ?? defaults.budget }, onStall };
}

/** The trace's passes through the same pass loop as `deadman run`: each recorded agent process in its own run session, on one simulated clock. */
/** `sleep`: the real clock's waits (the caller's), which the stream waits keep; `sink`: where the replayed run's rows go (`deadman report <scenario>`: an in-memory store); none by default. */
export async function replayTrace(trace: Trace, sleep: LoopClock['sleep'], sink: StoreSink | null = null, name = 'replay'): Promise<ReplayOutcome> {
  const { config, onStall } = replayConfig(trace);
  const passes = tracePasses(trace);
  const clock = new ReplayClock(trace.header.wall ?? 0);
  const records = new StepRecords(sink, () => clock.wall(), () => clock.now);
  records.startRun({ name, argv: ['replay', name], cwd: '/', unit: null, invocationId: null, pid: trace.header.root, pidStartTime: null, token: `replay:${name}`, adapter: trace.header.adapter, reviveOf: null });
  const notes: ReplayNote[] = [];
  const stops: NodeJS.Signals[] = [];
  let last: RunResult | null = null;
  let current = 0;
  // As in a live run, an action taken in one pass is not taken again on the same stall in a later one.
  const actionsTaken = new Set<string>();
  const end = await supervisePasses(0, config.revive.max_revives, {
    supervise: async (index, why, verifying) => {
      current = index;
      const pass = passes[index];
      // The recording ends before this pass started (deadman was stopped before it could start one).
      if (!pass) return ExitCode.STALLED_RESTART;
      if (why) notes.push({ at: pass.started?.at ?? clock.now, text: passNote(index + 1, why, pass) });
      const world = new SimulatedWorld(pass, await createAdapter(pass.adapter), clock, sleep, records, actionsTaken);
      const resumed = verifying && new ResumedVerification(verifying, world.ports);
      last = await world.replay(runSession({ argv: ['replay'], cwd: '/', env: {}, runTag: '0'.repeat(32), config, onStall }, { ...world.ports, resumed }));
      stops.push(...world.stops);
      return last;
    },
    resume: (index, guidance) => {
      if (guidance !== null) notes.push({ at: clock.now, text: `CANCEL_AND_RESUME: the session resumes, told: ${guidance.split('\n')[0]}` });
      return index + 1;
    },
    respawn: (index) => index + 1,
    waitForUsageReset: async () => waitAsRecorded(passes[current]!.usageWait, clock, notes),
    logger: { log: () => {} },
  });
  const ended = last as RunResult | null;
  records.finishRun({ exitCode: end.exitCode, signal: null, outcome: ended?.outcome ?? 'not started', reason: ended?.reason ?? 'the recording ends before the command started', errorCode: ended?.errorCode });
  return { steps: records.steps, notes, result: last, exitCode: end.exitCode, durationMs: clock.now, stops };
}

/** The next recorded process is replayed whatever started it live; a header edited to decide otherwise says so here. */
function passNote(number: number, why: PassReason, pass: TracePass): string {
  const recorded = pass.started && pass.started.why !== why ? `; the live run started it for ${pass.started.why}` : '';
  const argv = pass.started ? `: ${formatArgv(pass.started.argv, { quoting: 'json', maxArgLength: 60 })}` : '';
  return `pass ${number} (${why}${recorded}) pid ${pass.root}${argv}`;
}

/** The usage wait as the live run planned it: the clock jumps to the recorded resume time (the plan's jitter was random). */
async function waitAsRecorded(wait: TraceEventOf<'usage_wait'> | null, clock: ReplayClock, notes: ReplayNote[]): Promise<UsageWaitEnd> {
  // Stopped during the wait (or recorded before waits were): the run ended there, as a stop would.
  if (!wait) return { resume: false, exitCode: ExitCode.STALLED_RESTART, reraise: null };
  if (wait.resume_at === null) {
    notes.push({ at: wait.at, text: `USAGE_LIMIT: not waiting, ${wait.reason ?? 'as recorded'}` });
    return { resume: false, exitCode: ExitCode.DO_NOT_RESTART, reraise: null };
  }
  notes.push({ at: wait.at, text: `USAGE_LIMIT: waiting for the reset; the session resumes at ${traceClock(wait.resume_at)}` });
  clock.now = Math.max(clock.now, wait.resume_at);
  return { resume: true, backoffMs: null };
}

/** One clock for every pass: the trace's milliseconds, and the wall clock they started at. */
class ReplayClock {
  now = 0;
  constructor(private readonly wallAtStart: number) {}
  wall(): number {
    return this.wallAtStart + this.now;
  }
}

/** The edges of one replayed pass: the shared clock, its observations one per tick, its output, workspace answers and exit. */
class SimulatedWorld {
  readonly child: SimulatedChild;
  readonly stops: NodeJS.Signals[] = [];
  readonly ports: RunSessionPorts;
  private readonly observations: Array<TraceEventOf<'observation'>>;
  private readonly workspaces: Array<string | null>;
  private readonly polls: Array<() => void> = [];
  private readonly killed = new Set<string>();
  /** Observations the trace reached so far, and how many ticks took one. */
  private seen = 0;
  private consumed = 0;
  private asked = 0;

  constructor(private readonly pass: TracePass, adapter: Adapter, private readonly clock: ReplayClock, sleep: LoopClock['sleep'], records: StepRecords, actionsTaken: Set<string>) {
    this.observations = pass.events.filter((e) => e.type === 'observation');
    this.workspaces = pass.events.filter((e) => e.type === 'workspace').map((e) => e.fingerprint);
    this.child = new SimulatedChild(pass.root);
    this.ports = {
      // The trace's clock does not run by itself: the stream waits (the pipes close once the
      // simulated command exits) keep the real timer's time.
      clock: { monotonic: () => clock.now, wall: () => clock.wall(), sleep },
      notifier: { path: 'none', detail: 'replay', send: () => {} },
      logger: { log: () => {} },
      records,
      actionsTaken,
      watchdogUsec: null,
      spawn: async () => ({ ok: true, child: this.child }),
      signals: () => () => {},
      forward: (source, _fd, onChunk) => {
        source.on('data', (chunk: Buffer) => onChunk(chunk));
        return { drained: async () => {}, backlogged: () => false };
      },
      every: (_ms, run) => {
        this.polls.push(run);
        return () => this.polls.splice(this.polls.indexOf(run), 1);
      },
      makeTree: () => ({ observe: () => this.observe(), terminate: async (target) => this.terminate(target), stopAll: async (signal) => void this.stops.push(signal) }),
      adapter: () => adapter,
      onSession: () => {},
      evidence: { start: () => {}, stop: () => {}, summary: () => ({ alive: 0, total: 0, failing: null }), checkOnExit: async () => null },
      portAccepts: async () => false,
      // The work tree as the live run saw it, answer by answer; never the replaying machine's (the last answer holds).
      workspace: this.workspaces.length > 0 ? () => this.workspaces[Math.min(this.asked++, this.workspaces.length - 1)]! : undefined,
    };
  }

  /** Feeds the pass's events to the running session, one settled step each, and returns its result. */
  async replay(running: Promise<RunResult>): Promise<RunResult> {
    await settle();
    let exited = false;
    for (const event of this.pass.events) {
      exited = this.happen(event);
      await settle();
      if (exited) break;
    }
    // A recording cut short (deadman itself was killed) ends the way the stop or the kill did.
    if (!exited) this.child.exit(null, this.stops[0] ?? 'SIGKILL');
    return running;
  }

  /** Moves the clock to the event and lets it happen; true once the command exited. */
  private happen(event: TracePass['events'][number]): boolean {
    this.clock.now = Math.max(this.clock.now, event.at);
    if (event.type === 'output') this.child[event.stream].write(event.text);
    if (event.type === 'observation' && ++this.seen > this.consumed) for (const run of [...this.polls]) run();
    if (event.type !== 'exit') return false;
    this.child.exit(event.code, event.signal as NodeJS.Signals | null);
    return true;
  }

  /** A tick sees the newest observation recorded by now that no earlier tick saw, without what was "killed". */
  private observe(): Observation {
    const index = Math.min(Math.max(this.consumed, this.seen - 1), this.observations.length - 1);
    this.consumed = index + 1;
    const processes = (this.observations[index]?.processes ?? []).filter((p) => !this.killed.has(processKey(p)));
    return { at: this.clock.now, rootPid: this.child.pid, processes };
  }

  private terminate({ subtree }: TerminateTarget) {
    for (const p of subtree) this.killed.add(processKey(p));
    return { killed: subtree.map((p) => p.pid), survived: [], refused: null, skipped: [] };
  }
}
