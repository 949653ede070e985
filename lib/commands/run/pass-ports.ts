import type { Logger } from '../../core/ports/logger.ts';
import type { SdNotifier } from '../../core/ports/sd-notifier.ts';
import type { Config } from '../../core/config/config.ts';
import type { Redactor } from '../../core/redact/redact.ts';
import { repeatEvery } from '../../io/time/clock.ts';
import { passThrough } from '../../io/output/passthrough.ts';
import { v8Heap } from '../../io/heap/full-collection.ts';
import { spawnChild } from '../../io/process/child.ts';
import { listenForRunStopSignals } from '../../io/service/stop-signals.ts';
import { approvalInbox } from '../../io/approvals/approval-inbox.ts';
import { createObserver } from '../../io/process/observer.ts';
import { stopOwnedTree, terminateSubtree } from '../../io/process/kill.ts';
import { portAccepts } from '../../io/process/port-probe.ts';
import { workspaceFingerprinter } from '../../io/workspace/workspace-fingerprint.ts';
import type { RecordingStore } from '../../io/store/recording-store.ts';
import type { RunRecords } from '../../supervise/records/records.ts';
import type { TraceRecorder } from '../../supervise/trace/trace-recorder.ts';
import type { LiveConfig } from '../../supervise/run/live-config.ts';
import type { PassReason } from '../../supervise/run/pass-loop.ts';
import { createEvidenceGate } from '../../supervise/run/evidence-gate.ts';
import { ResumedVerification, type PendingVerification } from '../../supervise/tick/resumed-verification.ts';
import type { ProcessTree, PassPorts } from '../../supervise/ports.ts';
import type { Context } from '../shared/command-context.ts';
import type { HealthListener } from './health-listen.ts';
import type { RunAlerts } from './run-alerts.ts';
import type { RunReporters } from './run-reporters.ts';
import type { PreparedRun } from './prepare-run.ts';
import type { RunMarkerKeeper } from './run-marker.ts';
import { consultFor } from './diagnostician-edge.ts';

/**
 * The composition root of `deadman run`: every port of a pass (lib/supervise/ports.ts) is built
 * here, from what the run holds across its passes (RunPass) and what this pass prepared. A new
 * port is its type in ports.ts and its line here. The replay (trace/simulated-world.ts) and the
 * tests build their own worlds over the same types.
 */

/** What a run holds across its passes: settings, the run-wide state, and the edges opened once. */
export interface RunPass {
  name: string;
  command: string[];
  cwd: string;
  config: Config;
  /** What SIGHUP changes while the work runs (reload-config.ts). */
  live: LiveConfig;
  context: Context;
  redactor: Redactor;
  logger: Logger;
  notifier: SdNotifier;
  unit: string | null;
  store: RecordingStore;
  watchdogUsec: number | null;
  onStall: 'withhold' | 'exit';
  /** `--record`: one trace for every pass of the run. */
  recorder: TraceRecorder | null;
  /** Shared by every pass: an action policy allowed once is denied on the same stall and target later in the run. */
  actionsTaken: Set<string>;
  alerts: RunAlerts;
  /** Each pass's records, for the summary at the end. */
  passes: RunRecords[];
  /** `--health-listen`: every pass publishes its health to it. */
  listener: HealthListener | null;
}

/** One pass's own pieces: its records, what prepareRun decided, its reporters, the run row's token. */
export interface PassPieces {
  records: RunRecords;
  prepared: Extract<PreparedRun, { refusal: null }>;
  reporters: RunReporters;
  token: string;
  why: PassReason | null;
  verifying: PendingVerification | null;
}

export function passPorts(run: RunPass, pass: PassPieces): PassPorts {
  const { context, logger, live, recorder } = run;
  const { records, prepared } = pass;
  const { clock } = context;
  const workspace = workspaceFingerprinter(run.cwd, clock);
  const ports: PassPorts = {
    clock,
    notifier: run.notifier,
    logger,
    records,
    spawn: spawnChild,
    signals: listenForRunStopSignals,
    forward: (source, fd, onChunk, onUndeliverable) =>
      passThrough(source, fd, (chunk) => onChunk(chunk, clock.monotonic()), onUndeliverable),
    every: repeatEvery,
    heap: v8Heap,
    makeTree: (rootPid, runTag) => makeTree(rootPid, runTag, live, run.unit !== null, () => clock.monotonic()),
    adapter: prepared.adapter,
    ...(prepared.sniff ? { sniff: prepared.sniff } : {}),
    onSession: sessionSeen(records, prepared.marker, () => prepared.adapter().name, logger),
    onTurnCompleted: () => prepared.marker.turnCompleted(),
    evidence: createEvidenceGate(() => live.current.evidence, {
      evaluate: async (claim, index) => {
        // Loaded on the first check: its node:http/https cost ~30 ms of start-up that a run without claims never needs.
        const { evaluateClaim } = await import('../../io/evidence/evidence.ts');
        return evaluateClaim(claim, index, () => clock.wall());
      },
      monotonic: () => clock.monotonic(),
      records,
    }),
    portAccepts,
    consult: consultFor(run.config.diagnose, run.redactor),
    workspace,
    health: pass.reporters.health,
    alerts: run.alerts,
    resumed:
      pass.verifying &&
      new ResumedVerification(pass.verifying, {
        records,
        logger,
        workspace: recorder ? recorder.resumedWorkspace(workspace) : workspace,
      }),
    approvals: approvalInbox(context.paths, pass.token, (message) => logger.log('warn', message)),
  };
  return recorder ? recorder.ports(ports, pass.why) : ports;
}

/**
 * A new session of the agent: the run's row and the revive marker learn it, neither at once.
 * A fleet of short jobs under one supervisor starts a session every turn, and a write each made
 * the cost per turn grow with the store (issue 36): the row waits for the next batch of events,
 * the marker for its next write (RunMarkerKeeper).
 */
export function sessionSeen(
  records: Pick<RunRecords, 'updateSoon'>,
  marker: Pick<RunMarkerKeeper, 'sessionStarted'>,
  adapter: () => string,
  logger: Logger,
): (id: string) => void {
  return (id) => {
    records.updateSoon({ session_id: id, adapter: adapter() });
    marker.sessionStarted(id, logger);
  };
}

/** The owned tree of one run: the observer and the two killers, all checking ownership before every signal; kill_grace as SIGHUP left it. */
function makeTree(
  rootPid: number,
  runTag: string,
  live: LiveConfig,
  underSystemd: boolean,
  monotonic: () => number,
): ProcessTree {
  const observer = createObserver({ rootPid, useCgroup: underSystemd, monotonic, runTag });
  const guards = { selfPid: process.pid, parentPid: process.ppid };
  return {
    observe: () => observer.observe(),
    terminate: (target) =>
      terminateSubtree(target, {
        graceMs: live.current.kill_grace,
        observer,
        guards: { ...guards, rootPid },
        monotonic,
      }),
    stopAll: async (signal, graceMs, abort) => {
      await stopOwnedTree({ observer, rootPid, signal, graceMs, abort, guards, monotonic });
    },
  };
}
