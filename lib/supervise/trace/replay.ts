import type { StoreSink } from '../../io/store/recording-store.ts';
import { ResumedVerification } from '../tick/resumed-verification.ts';
import { createAdapter } from '../../core/adapters/index.ts';
import { configSchema, type Config } from '../../core/config/config.ts';
import type { Trace, TraceEventOf, TraceHeader } from '../../core/session/trace.ts';
import { tracePasses, type TracePass } from '../../core/session/trace-passes.ts';
import { formatArgv } from '../../core/process/format-argv.ts';
import { traceClock } from '../../core/session/replay-report.ts';
import { ExitCode } from '../../exit-codes.ts';
import { supervisePasses, type PassReason, type UsageWaitEnd } from '../run/pass-loop.ts';
import type { PassResult } from '../run/outcome.ts';
import { StepRecords, type RecordedStep } from '../records/step-records.ts';
import { runPass } from '../run/supervised-pass.ts';
import type { LoopClock } from '../ports.ts';
import { ReplayClock, SimulatedWorld } from './simulated-world.ts';

/**
 * Replays a trace through the real supervised pass — the same detectors, diagnosis, policy,
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
  result: PassResult | null;
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

export function replayConfig(trace: Trace): { config: Config; onStall: 'withhold' | 'exit' } {
  const { on_stall: onStall = 'exit', budget, generic, revive, ...settings } = trace.header.settings;
  const defaults = configSchema.parse({});
  return {
    config: {
      ...defaults,
      ...settings,
      budget: budget ?? defaults.budget,
      generic: generic ?? defaults.generic,
      revive: { ...defaults.revive, ...revive },
    },
    onStall,
  };
}

/** The trace's passes through the same pass loop as `deadman run`: each recorded agent process in its own supervised pass, on one simulated clock. */
/** `sleep`: the real clock's waits (the caller's), which the stream waits keep; `sink`: where the replayed run's rows go (`deadman report <scenario>`: an in-memory store); none by default. */
export async function replayTrace(
  trace: Trace,
  sleep: LoopClock['sleep'],
  sink: StoreSink | null = null,
  name = 'replay',
): Promise<ReplayOutcome> {
  const { config, onStall } = replayConfig(trace);
  const passes = tracePasses(trace);
  const clock = new ReplayClock(trace.header.wall ?? 0);
  const runs = new ReplayRuns(trace.header, sink, clock, name);
  const notes: ReplayNote[] = [];
  const stops: NodeJS.Signals[] = [];
  let last: PassResult | null = null;
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
      const records = runs.passStarted(index, pass.root);
      const world = new SimulatedWorld(
        pass,
        trace.header.version,
        await createAdapter(pass.adapter),
        clock,
        sleep,
        records,
      );
      const resumed =
        verifying && new ResumedVerification(verifying, { ...world.ports, workspace: world.resumedWorkspace });
      last = await world.replay(
        runPass(
          { argv: ['replay'], cwd: '/', env: {}, runTag: '0'.repeat(32), config, onStall, actionsTaken },
          { ...world.ports, resumed },
        ),
      );
      stops.push(...world.stops);
      runs.passEnded(last);
      return last;
    },
    resume: (index, guidance) => {
      if (guidance !== null)
        notes.push({ at: clock.now, text: `CANCEL_AND_RESUME: the session resumes, told: ${guidance.split('\n')[0]}` });
      return index + 1;
    },
    respawn: (index) => index + 1,
    waitForUsageReset: async () => waitAsRecorded(passes[current]!.usageWait, clock, notes),
    logger: { log: () => {} },
  });
  runs.ended(end.exitCode, last);
  return { steps: runs.records.steps, notes, result: last, exitCode: end.exitCode, durationMs: clock.now, stops };
}

/**
 * The replay's run rows. From version 2 on one per pass, as `deadman run` writes them (an
 * incident still being verified when its pass ends is ABANDONED there, and settled by the next
 * pass); a version 1 trace keeps the one row for the whole trace its replays always wrote.
 */
class ReplayRuns {
  records: StepRecords;
  private readonly perPass: boolean;

  constructor(
    private readonly header: TraceHeader,
    private readonly sink: StoreSink | null,
    private readonly clock: ReplayClock,
    private readonly name: string,
  ) {
    this.perPass = header.version >= 2;
    this.records = new StepRecords(
      sink,
      () => clock.wall(),
      () => clock.now,
    );
  }

  passStarted(index: number, root: number): StepRecords {
    if (index > 0 && !this.perPass) return this.records;
    if (index > 0)
      this.records = new StepRecords(
        this.sink,
        () => this.clock.wall(),
        () => this.clock.now,
        this.records,
      );
    const { name } = this;
    this.records.startRun({
      name,
      argv: ['replay', name],
      cwd: '/',
      unit: null,
      invocationId: null,
      pid: root,
      pidStartTime: null,
      token: `replay:${name}`,
      adapter: this.header.adapter,
      reviveOf: null,
    });
    return this.records;
  }

  passEnded(result: PassResult): void {
    if (this.perPass)
      this.records.finishRun({
        exitCode: result.exitCode,
        signal: result.reraise,
        outcome: result.outcome,
        reason: result.reason,
        errorCode: result.errorCode,
      });
  }

  ended(exitCode: number, last: PassResult | null): void {
    if (this.perPass) return;
    this.records.finishRun({
      exitCode,
      signal: null,
      outcome: last?.outcome ?? 'not started',
      reason: last?.reason ?? 'the recording ends before the command started',
      errorCode: last?.errorCode,
    });
  }
}

/** The next recorded process is replayed whatever started it live; a header edited to decide otherwise says so here. */
function passNote(number: number, why: PassReason, pass: TracePass): string {
  const recorded = pass.started && pass.started.why !== why ? `; the live run started it for ${pass.started.why}` : '';
  const argv = pass.started ? `: ${formatArgv(pass.started.argv, { quoting: 'json', maxArgLength: 60 })}` : '';
  return `pass ${number} (${why}${recorded}) pid ${pass.root}${argv}`;
}

/** The usage wait as the live run planned it: the clock jumps to the recorded resume time (the plan's jitter was random). */
async function waitAsRecorded(
  wait: TraceEventOf<'usage_wait'> | null,
  clock: ReplayClock,
  notes: ReplayNote[],
): Promise<UsageWaitEnd> {
  // Stopped during the wait (or recorded before waits were): the run ended there, as a stop would.
  if (!wait) return { resume: false, exitCode: ExitCode.STALLED_RESTART, reraise: null };
  if (wait.resume_at === null) {
    notes.push({ at: wait.at, text: `USAGE_LIMIT: not waiting, ${wait.reason ?? 'as recorded'}` });
    return { resume: false, exitCode: ExitCode.DO_NOT_RESTART, reraise: null };
  }
  notes.push({
    at: wait.at,
    text: `USAGE_LIMIT: waiting for the reset; the session resumes at ${traceClock(wait.resume_at)}`,
  });
  clock.now = Math.max(clock.now, wait.resume_at);
  return { resume: true, backoffMs: null };
}
