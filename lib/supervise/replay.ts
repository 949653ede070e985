import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { createAdapter } from '../core/adapters/index.ts';
import { configSchema, type Config } from '../core/config/config.ts';
import { processKey, type Observation } from '../core/process/process-info.ts';
import type { Adapter } from '../core/adapters/agent-events.ts';
import { traceAdapter, type Trace, type TraceEvent } from '../core/session/trace.ts';
import type { RunResult } from './outcome.ts';
import { StepRecords, type RecordedStep } from './step-records.ts';
import { runSession } from './run-session.ts';
import type { RunSessionPorts, SpawnedChild, TerminateTarget } from './ports.ts';

/**
 * Replays a trace through the real run session — the same detectors, diagnosis, policy,
 * recovery and verification — with every edge simulated: the clock is the trace's, each
 * recorded observation is what one tick sees, output is written into the child's pipes at its
 * time, and a kill removes the subtree from every later observation instead of signalling.
 */

export interface ReplayOutcome {
  steps: RecordedStep[];
  result: RunResult;
  /** Simulated milliseconds from the start to the exit. */
  durationMs: number;
  /** Signals the simulated tree "sent": every one a replay, none real. */
  stops: NodeJS.Signals[];
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
  const { on_stall: onStall = 'exit', ...settings } = trace.header.settings;
  return { config: { ...configSchema.parse({}), ...settings }, onStall };
}

export async function replayTrace(trace: Trace): Promise<ReplayOutcome> {
  const { config, onStall } = replayConfig(trace);
  const world = new SimulatedWorld(trace, await createAdapter(traceAdapter(trace)));
  const running = runSession({ argv: ['replay'], cwd: '/', env: {}, runTag: '0'.repeat(32), config, onStall }, world.ports);
  await settle();
  let exited = false;
  for (const event of trace.events) {
    exited = world.happen(event);
    await settle();
    if (exited) break;
  }
  // A recording cut short (deadman itself was killed) ends the way the stop or the kill did.
  if (!exited) world.child.exit(null, world.stops[0] ?? 'SIGKILL');
  const result = await running;
  return { steps: world.records.steps, result, durationMs: world.now, stops: world.stops };
}

/** The edges of a replayed run: the trace's clock, its observations one per tick, its output and exit. */
class SimulatedWorld {
  now = 0;
  readonly child: SimulatedChild;
  readonly records = new StepRecords(null, () => this.now, () => this.now);
  readonly stops: NodeJS.Signals[] = [];
  readonly ports: RunSessionPorts;
  private readonly observations: Array<Extract<TraceEvent, { type: 'observation' }>>;
  private readonly polls: Array<() => void> = [];
  private readonly killed = new Set<string>();
  /** Observations the trace reached so far, and how many ticks took one. */
  private seen = 0;
  private consumed = 0;

  constructor(trace: Trace, adapter: Adapter) {
    this.observations = trace.events.filter((e): e is Extract<TraceEvent, { type: 'observation' }> => e.type === 'observation');
    this.child = new SimulatedChild(trace.header.root);
    this.ports = {
      clock: { monotonic: () => this.now, wall: () => this.now },
      notifier: { path: 'none', detail: 'replay', send: () => {} },
      logger: { log: () => {} },
      records: this.records,
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
    };
  }

  /** Moves the clock to the event and lets it happen; true once the command exited. */
  happen(event: TraceEvent): boolean {
    this.now = Math.max(this.now, event.at);
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
    return { at: this.now, rootPid: this.child.pid, processes };
  }

  private terminate({ subtree }: TerminateTarget) {
    for (const p of subtree) this.killed.add(processKey(p));
    return { killed: subtree.map((p) => p.pid), survived: [], refused: null, skipped: [] };
  }
}
