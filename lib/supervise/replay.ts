import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { createAdapter } from '../core/adapters/index.ts';
import { configSchema, type Config } from '../core/config/config.ts';
import { processKey, type Observation } from '../core/process/events.ts';
import type { Trace, TraceEvent } from '../core/session/trace.ts';
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
  let now = 0;
  const { config, onStall } = replayConfig(trace);
  const observations = trace.events.filter((e): e is Extract<TraceEvent, { type: 'observation' }> => e.type === 'observation');
  const rootPid = trace.header.root;
  const child = new SimulatedChild(rootPid);
  const records = new StepRecords(null, () => now, () => now);
  const adapter = await createAdapter(trace.header.adapter);
  const polls: Array<() => void> = [];
  const killed = new Set<string>();
  const stops: NodeJS.Signals[] = [];
  let seen = 0;
  let consumed = 0;
  const observe = (): Observation => {
    // A tick sees the newest observation recorded by now that no earlier tick saw.
    const index = Math.min(Math.max(consumed, seen - 1), observations.length - 1);
    consumed = index + 1;
    const processes = (observations[index]?.processes ?? []).filter((p) => !killed.has(processKey(p)));
    return { at: now, rootPid, processes };
  };
  const ports: RunSessionPorts = {
    clock: { monotonic: () => now, wall: () => now },
    notifier: { path: 'none', detail: 'replay', send: () => {} },
    logger: { log: () => {} },
    records,
    watchdogUsec: null,
    spawn: async () => ({ ok: true, child }),
    signals: () => () => {},
    forward: (source, _fd, onChunk) => {
      source.on('data', (chunk: Buffer) => onChunk(chunk));
      return { drained: async () => {} };
    },
    every: (_ms, run) => {
      polls.push(run);
      return () => polls.splice(polls.indexOf(run), 1);
    },
    makeTree: () => ({
      observe,
      terminate: async ({ subtree }: TerminateTarget) => {
        for (const p of subtree) killed.add(processKey(p));
        return { killed: subtree.map((p) => p.pid), survived: [], refused: null, skipped: [] };
      },
      stopAll: async (signal) => void stops.push(signal),
    }),
    adapter: () => adapter,
    onSession: () => {},
    evidence: { start: () => {}, stop: () => {}, summary: () => ({ alive: 0, total: 0, failing: null }), checkOnExit: async () => null },
    portAccepts: async () => false,
  };
  const running = runSession({ argv: ['replay'], cwd: '/', env: {}, runTag: '0'.repeat(32), config, onStall }, ports);
  await settle();
  let exited = false;
  for (const event of trace.events) {
    now = Math.max(now, event.at);
    if (event.type === 'output') child[event.stream].write(event.text);
    if (event.type === 'observation' && ++seen > consumed) for (const run of [...polls]) run();
    if (event.type === 'exit') {
      child.exit(event.code, event.signal as NodeJS.Signals | null);
      exited = true;
    }
    await settle();
    if (exited) break;
  }
  // A recording cut short (deadman itself was killed) ends the way the stop or the kill did.
  if (!exited) child.exit(null, stops[0] ?? 'SIGKILL');
  const result = await running;
  return { steps: records.steps, result, durationMs: now, stops };
}
