import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { processKey, type Observation, type ProcessInfo } from '../../core/process/process-info.ts';
import type { Adapter } from '../../core/adapters/agent-events.ts';
import type { TraceEventOf } from '../../core/session/trace.ts';
import type { TracePass } from '../../core/session/trace-passes.ts';
import type { PassResult } from '../run/outcome.ts';
import type { StepRecords } from '../records/step-records.ts';
import type { LoopClock, PassPorts, SpawnedChild, TerminateResult, TerminateTarget } from '../ports.ts';

/**
 * The edges of one replayed pass: the shared clock, its observations one per tick, its output
 * written into the child's pipes at its time, the workspace, ready-port and evidence answers,
 * the kills and the exit. A version 1 trace is replayed as it always was: a tick sees the clock
 * at its observation's entry, births are placed at first sight, a kill is simulated at once. From
 * version 2 on the pass starts when it did, its first tick reads the clock at its first
 * observation, a poll keeps every field the observer reported (the start clock places births as
 * the live run did), a kill ends when the recorded one did with its result, and evidence dies
 * when it did.
 */

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

/** One clock for every pass: the trace's milliseconds, and the wall clock they started at. */
export class ReplayClock {
  now = 0;
  constructor(private readonly wallAtStart: number) {}
  wall(): number {
    return this.wallAtStart + this.now;
  }
}

type PassEvent = TracePass['events'][number];

type Answers<T> = { recorded: boolean; next(): T };

/** A port's recorded answers, handed out in the order asked; the last one holds after that, `none` when there is none. */
function answers<T>(recorded: T[], none: T): Answers<T> {
  let asked = 0;
  return {
    recorded: recorded.length > 0,
    next: () => (recorded.length === 0 ? none : recorded[Math.min(asked++, recorded.length - 1)]!),
  };
}

export class SimulatedWorld {
  readonly child: SimulatedChild;
  readonly stops: NodeJS.Signals[] = [];
  readonly ports: PassPorts;
  /** What the verification of the pass before sees of the work tree. */
  readonly resumedWorkspace: PassPorts['workspace'];
  private readonly exact: boolean;
  private readonly observations: Array<TraceEventOf<'observation'>>;
  private readonly polls: Array<() => void> = [];
  private readonly killed = new Set<string>();
  /** Observations the trace reached so far, and how many ticks took one. */
  private seen = 0;
  private consumed = 0;
  /** Kills recorded and not reached yet, and the one the loop waits on. */
  private kills: number;
  private killing: { resolve: (result: TerminateResult) => void; simulated: TerminateResult } | null = null;
  private onDead: ((message: string) => void) | null = null;
  private onSignal: ((signal: NodeJS.Signals) => void) | null = null;

  constructor(
    private readonly pass: TracePass,
    version: number,
    adapter: Adapter,
    private readonly clock: ReplayClock,
    sleep: LoopClock['sleep'],
    records: StepRecords,
  ) {
    this.exact = version >= 2;
    this.observations = pass.events.filter((e) => e.type === 'observation');
    this.kills = pass.events.filter((e) => e.type === 'terminate').length;
    // Version 1 recorded no answer of the resumed verification: it took the pass's answers, as its replays always did.
    const workspace = answers(
      pass.events.flatMap((e) => (e.type === 'workspace' && (!this.exact || !e.resumed) ? [e.fingerprint] : [])),
      null,
    );
    const resumed = answers(
      pass.events.flatMap((e) => (e.type === 'workspace' && e.resumed ? [e.fingerprint] : [])),
      null,
    );
    const port = answers(
      pass.events.flatMap((e) => (e.type === 'port' ? [e.accepts] : [])),
      false,
    );
    const onExit = answers(
      pass.events.flatMap((e) => (e.type === 'evidence' && e.on_exit !== undefined ? [e.on_exit] : [])),
      null,
    );
    // The pass starts when the live one did (version 1 kept the clock where the last pass left it).
    if (this.exact && pass.started) clock.now = Math.max(clock.now, pass.started.at);
    this.child = new SimulatedChild(pass.root);
    this.ports = this.simulatedPorts({ clock, sleep, records, adapter, onExit, port, workspace });
    this.resumedWorkspace = this.exact ? () => resumed.next() : this.ports.workspace;
  }

  /** The pass's ports: the trace's clock, the simulated child and tree, the recorded answers. */
  private simulatedPorts(parts: {
    clock: ReplayClock;
    sleep: LoopClock['sleep'];
    records: StepRecords;
    adapter: Adapter;
    onExit: Answers<string | null>;
    port: Answers<boolean>;
    workspace: Answers<string | null>;
  }): PassPorts {
    const { clock, sleep, records, adapter, onExit, port, workspace } = parts;
    return {
      // The trace's clock does not run by itself: the stream waits (the pipes close once the
      // simulated command exits) keep the real timer's time.
      clock: { monotonic: () => clock.now, wall: () => clock.wall(), sleep },
      notifier: { path: 'none', detail: 'replay', send: () => {} },
      logger: { log: () => {} },
      records,
      spawn: async () => ({ ok: true, child: this.child }),
      signals: (onSignal) => {
        this.onSignal = onSignal;
        return () => (this.onSignal = null);
      },
      forward: (source, _fd, onChunk) => {
        source.on('data', (chunk: Buffer) => onChunk(chunk, clock.now));
        return { drained: async () => {}, backlogged: () => false };
      },
      every: (_ms, run) => {
        this.polls.push(run);
        return () => this.polls.splice(this.polls.indexOf(run), 1);
      },
      makeTree: () => {
        // Between the spawn and the first poll the live run built its observer: the first tick reads the clock at its observation.
        if (this.exact && this.observations[0]) clock.now = Math.max(clock.now, this.observations[0].at);
        return {
          observe: () => this.observe(),
          terminate: (target) => this.terminate(target),
          stopAll: async (signal) => void this.stops.push(signal),
        };
      },
      adapter: () => adapter,
      onSession: () => {},
      evidence: {
        start: (onDead) => void (this.onDead = onDead),
        stop: () => {},
        summary: () => ({ alive: 0, total: 0, failing: null }),
        checkOnExit: async () => onExit.next(),
      },
      portAccepts: async () => port.next(),
      // The work tree as the live run saw it, answer by answer; never the replaying machine's.
      workspace: workspace.recorded ? () => workspace.next() : undefined,
    };
  }

  /** Feeds the pass's events to the running session, one settled step each, and returns its result. */
  async replay(running: Promise<PassResult>): Promise<PassResult> {
    await settle();
    let exited = false;
    for (const event of this.pass.events) {
      exited = this.happen(event);
      await settle();
      if (exited) break;
    }
    this.killDone();
    // A recording cut short (deadman itself was killed) ends the way the stop or the kill did.
    if (!exited) this.child.exit(null, this.stops[0] ?? 'SIGKILL');
    return running;
  }

  /** Moves the clock to the event and lets it happen; true once the command exited. */
  private happen(event: PassEvent): boolean {
    this.clock.now = Math.max(this.clock.now, event.at);
    if (event.type === 'output') this.child[event.stream].write(event.text);
    if (event.type === 'observation' && ++this.seen > this.consumed) for (const run of [...this.polls]) run();
    if (event.type === 'terminate') this.killDone(event.result);
    if (event.type === 'evidence' && event.dead !== undefined) this.onDead?.(event.dead);
    if (event.type === 'signal') this.onSignal?.(event.signal as NodeJS.Signals);
    if (event.type !== 'exit') return false;
    this.child.exit(event.code, event.signal as NodeJS.Signals | null);
    return true;
  }

  /** A tick sees the newest observation recorded by now that no earlier tick saw, without what was "killed". */
  private observe(): Observation {
    const index = Math.min(Math.max(this.consumed, this.seen - 1), this.observations.length - 1);
    this.consumed = index + 1;
    const { type: _type, at, processes = [], ...more } = this.observations[index] ?? {};
    // Whatever the observer reported about a process is the trace's (trace.ts keeps unknown fields as they were).
    const alive = (processes as ProcessInfo[]).filter((p) => !this.killed.has(processKey(p)));
    if (!this.exact) return { at: this.clock.now, rootPid: this.child.pid, processes: alive };
    return { ...more, at: at ?? this.clock.now, rootPid: this.child.pid, processes: alive };
  }

  /** A recorded kill ends when it did, with what it did; one the live run did not make is simulated at once. */
  private terminate({ subtree }: TerminateTarget): Promise<TerminateResult> {
    for (const p of subtree) this.killed.add(processKey(p));
    const simulated = { killed: subtree.map((p) => p.pid), survived: [], refused: null, skipped: [] };
    if (!this.exact || this.kills === 0) return Promise.resolve(simulated);
    return new Promise((resolve) => (this.killing = { resolve, simulated }));
  }

  /** `result`: the recorded one; none when the pass ended first (the simulated one). */
  private killDone(result?: TerminateResult): void {
    if (result) this.kills -= 1;
    const killing = this.killing;
    this.killing = null;
    killing?.resolve(result ?? killing.simulated);
  }
}
