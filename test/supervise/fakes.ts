import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { createGenericAdapter } from '../../lib/core/adapters/generic.ts';
import { configSchema, type Config } from '../../lib/core/config/config.ts';
import { transition, type IncidentEvent } from '../../lib/core/incident/incident.ts';
import type { PolicyDecision } from '../../lib/core/incident/policy-decision.ts';
import type { ProcessInfo } from '../../lib/core/process/process-info.ts';
import type { Adapter } from '../../lib/core/adapters/agent-events.ts';
import type { Level } from '../../lib/core/ports/logger.ts';
import type { Incident } from '../../lib/supervise/record-types.ts';
import { RunMachine } from '../../lib/supervise/run/run-machine.ts';
import type { LoopClock, RunRecorder, PassPorts, SpawnedChild, TerminateTarget } from '../../lib/supervise/ports.ts';

/**
 * Fakes of every port a run uses: a clock the test moves, a poll the test fires, a child whose
 * output and exit the test writes, a process tree the test edits, stop signals the test raises.
 * Nothing sleeps: `settle()` yields to the event loop until the fakes' promises ran out.
 */

export const ROOT_PID = 100;

export function proc(pid: number, ppid: number, options: Partial<ProcessInfo> = {}): ProcessInfo {
  return {
    pid,
    ppid,
    pgid: pid,
    sid: pid,
    startTime: pid,
    state: 'S',
    comm: `p${pid}`,
    cmdline: [`p${pid}`],
    cpuTicks: 0,
    ioBytes: 0,
    listening: false,
    ...options,
  };
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...configSchema.parse({}),
    poll: 1000,
    inactivity: 60_000,
    hung_timeout: 10_000,
    verify_window: 5_000,
    stop_grace: 3_000,
    ...overrides,
  };
}

/** Lets every promise the fakes already resolved run to its end (no timers involved). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

class FakeChild extends EventEmitter implements SpawnedChild {
  readonly pid = ROOT_PID;
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();

  print(text: string): void {
    this.stdout.write(text);
  }

  exit(code: number | null, signal: NodeJS.Signals | null = null): void {
    this.stdout.end();
    this.stderr.end();
    this.emit('exit', code, signal);
  }
}

/**
 * The run's records over no database: each opened incident, applied transition and decision
 * kept for the test to read; transitions follow the incident state machine, as the real
 * records' do; the rest is written nowhere.
 */
function keptRecords() {
  const moves: Array<{ kind: string; event: IncidentEvent; to: string }> = [];
  const opened: Incident[] = [];
  const decisions: PolicyDecision[] = [];
  const nowhere = () => {};
  const records: RunRecorder = {
    update: nowhere,
    event: nowhere,
    undelivered: nowhere,
    observation: nowhere,
    diagnosis: nowhere,
    action: nowhere,
    verification: nowhere,
    evidence: nowhere,
    openIncident: (kind, message) => {
      const incident: Incident = { id: -1, kind, state: 'OPEN', message, attempts: 0 };
      opened.push(incident);
      return incident;
    },
    move: (incident, event) => {
      const next = transition(incident.state, event, incident.attempts);
      if (next === null) return false;
      incident.state = next;
      moves.push({ kind: incident.kind, event, to: next });
      return true;
    },
    decision: (_incident, decision) => void decisions.push(decision),
  };
  return Object.assign(records, { moves, opened, decisions });
}

/** The run machine, with every transition that applied in `trace` (a tick that stays put left out). */
export function tracedMachine(): RunMachine & { trace: string[] } {
  const trace: string[] = [];
  const machine = new RunMachine(({ from, event, to }) => {
    if (from !== to || event !== 'tick') trace.push(`${from} -${event}-> ${to}`);
  });
  return Object.assign(machine, { trace });
}

/**
 * A clock the test moves, for the loop and for every timer a command keeps (LoopClock): its
 * waits resolve only when `advance`/`moveTo` passes their time, never on real time.
 */
export function fakeClock() {
  let now = 0;
  let sleepers: Array<{ at: number; wake: () => void }> = [];
  const moveTo = (at: number): void => {
    now = at;
    const due = sleepers.filter((s) => s.at <= now);
    sleepers = sleepers.filter((s) => s.at > now);
    for (const s of due) s.wake();
  };
  const clock: LoopClock = {
    monotonic: () => now,
    wall: () => 1_700_000_000_000 + now,
    sleep: (ms) => new Promise<void>((wake) => sleepers.push({ at: now + ms, wake })),
  };
  return { clock, now: () => now, moveTo, advance: (ms: number) => moveTo(now + ms) };
}

/**
 * `watchdogUsec`: the run is under a systemd watchdog (a notify path, WATCHDOG_USEC), so its
 * ping timer runs on the fake clock: `elapse` moves time and fires every timer that falls due.
 */
export function fakeRun(
  options: { spawnFails?: boolean; evidenceOnExit?: string | null; adapter?: Adapter; watchdogUsec?: number } = {},
) {
  const time = fakeClock();
  /** Repeating timers (the poll, the watchdog), on the fake clock as its waits are. */
  const timers: Array<{ ms: number; run: () => void; dueAt: number }> = [];
  const child = new FakeChild();
  const logs: Array<{ level: Level; message: string }> = [];
  const notes: string[] = [];
  const tree = {
    processes: [proc(ROOT_PID, 1)],
    terminated: [] as number[],
    stops: [] as NodeJS.Signals[],
    abort: null as AbortSignal | null,
  };
  let onSignal: ((signal: NodeJS.Signals) => void) | null = null;
  let onEvidenceDead: ((message: string) => void) | null = null;
  const logger = { log: (level: Level, message: string) => void logs.push({ level, message }) };
  const records = keptRecords();
  const adapter = options.adapter ?? createGenericAdapter();
  const ports: PassPorts = {
    clock: time.clock,
    notifier: {
      path: options.watchdogUsec === undefined ? 'none' : 'addon',
      detail: 'fake',
      send: (message) => void notes.push(message),
    },
    logger,
    records,
    spawn: async () =>
      options.spawnFails ? { ok: false, exitCode: 127, message: 'nope: command not found' } : { ok: true, child },
    signals: (handler) => {
      onSignal = handler;
      return () => (onSignal = null);
    },
    forward: (source, _fd, onChunk) => {
      source.on('data', (chunk: Buffer) => onChunk(chunk, time.clock.monotonic()));
      return { drained: async () => {}, backlogged: () => false };
    },
    every: (ms, run) => {
      const timer = { ms, run, dueAt: time.now() + ms };
      timers.push(timer);
      return () => timers.splice(timers.indexOf(timer), 1);
    },
    makeTree: () => ({
      observe: () => ({ at: time.now(), rootPid: ROOT_PID, processes: tree.processes.map((p) => ({ ...p })) }),
      terminate: async (target: TerminateTarget) => {
        const pids = target.subtree.map((p) => p.pid);
        tree.terminated.push(target.target.pid);
        tree.processes = tree.processes.filter((p) => !pids.includes(p.pid));
        return { killed: pids, survived: [], refused: null, skipped: [] };
      },
      stopAll: async (signal, _graceMs, abort) => {
        tree.stops.push(signal);
        tree.abort = abort;
      },
    }),
    adapter: () => adapter,
    onSession: () => {},
    evidence: {
      start: (onDead) => void (onEvidenceDead = onDead),
      stop: () => {},
      summary: () => ({ alive: 0, total: 0, failing: null }),
      checkOnExit: async () => options.evidenceOnExit ?? null,
    },
    portAccepts: async () => false,
  };
  return {
    ports,
    child,
    tree,
    logs,
    notes,
    records,
    advance: (ms: number) => time.advance(ms),
    /** One poll of the loop (every repeating timer fires once, whatever its period), then everything it started. */
    poll: async () => {
      for (const timer of [...timers]) timer.run();
      await settle();
    },
    /** Moves the clock `ms` on, firing each repeating timer as it falls due (in time order) and settling after each. */
    elapse: async (ms: number) => {
      const until = time.now() + ms;
      for (;;) {
        const next = Math.min(...timers.map((t) => t.dueAt));
        if (!(next <= until)) break;
        time.moveTo(next);
        for (const timer of timers.filter((t) => t.dueAt <= next)) {
          timer.dueAt += timer.ms;
          timer.run();
        }
        await settle();
      }
      time.moveTo(until);
      await settle();
    },
    raise: (signal: NodeJS.Signals) => onSignal?.(signal),
    evidenceDead: (message: string) => onEvidenceDead?.(message),
  };
}
