import type { Observation, ProcessInfo } from '../core/process/process-info.ts';
import type { Adapter } from '../core/adapters/agent-events.ts';
import type { ProcessIdentity } from '../core/process/owned-tree.ts';
import type { ParsedDiagnosis } from '../core/incident/diagnosis-schema.ts';
import type { EvidencePacket } from '../core/incident/evidence-packet.ts';
import type { Clock } from '../core/time/clock.ts';
import type { Logger } from '../core/ports/logger.ts';
import type { SdNotifier } from '../core/ports/sd-notifier.ts';
import type { Readable } from 'node:stream';
import type { TerminateResult } from '../core/process/terminate-result.ts';
import type { Incident, SignalEvidence } from './record-types.ts';
import type { IncidentEvent } from '../core/incident/incident.ts';
import type { SignalKind } from '../core/incident/kinds.ts';
import type { PolicyDecision } from '../core/incident/policy-decision.ts';
import type { Attempt } from '../core/detect/no-progress.ts';
import type { ApprovalAnswer } from '../core/incident/approval-answer.ts';

/**
 * Every edge the supervision loop talks to, defined once, and nothing else: settings and the
 * run's own state come in the plan (run/run-plan.ts). The loop owns no OS code: one
 * composition root builds every real edge of a pass (lib/commands/run/pass-ports.ts), the replay
 * builds simulated ones (trace/simulated-world.ts), tests hand in fakes, and the same loop runs
 * under systemd, under launchd and in a unit test. The edges implement these types, never the
 * other way round: records.ts's RunRecords is one RunRecorder, a test's fake another.
 */

/** The loop's ports that io uses beyond the loop too: defined in core (types only), so io implements them without importing the loop. */
export type { Clock, Logger, SdNotifier, TerminateResult };

/** A work-tree fingerprint, or the promise of one while git runs (io/workspace-fingerprint.ts). */
export type WorkspaceAnswer = string | null | Promise<string | null>;

/** The owned process tree of one run: what is in it now, and the two ways to stop parts of it. */
export interface ProcessTree {
  observe(): Observation;
  /** Stops one proven-owned subtree: SIGTERM, the kill grace, then SIGKILL to survivors. */
  terminate(target: TerminateTarget): Promise<TerminateResult>;
  /** Forwards `signal` to the root's group, waits up to `graceMs` (less if aborted), then SIGKILLs every owned process. */
  stopAll(signal: NodeJS.Signals, graceMs: number, abort: AbortSignal): Promise<void>;
}

/** The subtree a hung finding names: its top process (identity re-checked before every signal) and the members seen with it. */
export interface TerminateTarget {
  target: ProcessIdentity;
  subtree: readonly ProcessInfo[];
}

/** The started command as the loop sees it: its pid, its two output pipes, and its exit. */
export interface SpawnedChild {
  pid: number;
  stdout: Readable | null;
  stderr: Readable | null;
  once(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
}

export type SpawnOutcome = { ok: true; child: SpawnedChild } | { ok: false; exitCode: number; message: string };

/** Starts the supervised command (argv verbatim, its own process group). */
export type Spawner = (
  argv: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; stdin: 'null' | 'inherit'; runTag: string },
) => Promise<SpawnOutcome>;

/** One of the child's streams on its way to deadman's own fd (io/passthrough.ts). */
export interface Passthrough {
  /** Resolves when everything received so far has been written. */
  drained(): Promise<void>;
  /** Whether received bytes still wait to be written (the reader is behind). */
  backlogged(): boolean;
}

/**
 * Copies one of the child's streams to deadman's own fd. `onChunk` hears each chunk (and must not
 * keep it) with the monotonic time it arrived, read once, so the trace and the run's judgement
 * place it at the same time; `onUndeliverable` hears once when the fd stopped taking output.
 */
export type OutputForwarder = (
  source: Readable,
  fd: number,
  onChunk: (chunk: Buffer, arrivedAt: number) => void,
  onUndeliverable: (error: NodeJS.ErrnoException) => void,
) => Passthrough;

/** Repeats `run` every `ms` until the returned function is called. */
export type Repeater = (ms: number, run: () => void) => () => void;

/**
 * The clock the loop reads and waits on, one port for both: a fake clock moves time and wakes
 * what waits on it, so a whole run, its stream waits included, runs under it in milliseconds.
 */
export interface LoopClock extends Clock {
  /** Resolves once `ms` passed on this clock; never keeps the process alive on its own. */
  sleep(ms: number): Promise<void>;
}

/** Delivers the stop signals deadman itself receives; returns the function that stops listening. */
export type SignalSource = (onSignal: (signal: NodeJS.Signals) => void) => () => void;

/**
 * Asks the external diagnostician about one incident, once, bounded by its timeout; the edge
 * redacts the packet first. `signals`: the signal kinds put to it (`diagnose.signals`;
 * HUNG_PROCESS when unset).
 */
export type Consult = ((packet: EvidencePacket) => Promise<ParsedDiagnosis>) & { signals?: readonly string[] };

export interface EvidenceGate {
  /** Starts periodic checks of `always` claims; `onDead` fires when one stays failing beyond its grace. */
  start(onDead: (message: string) => void): void;
  stop(): void;
  summary(): { alive: number; total: number; failing: string | null };
  /** Evaluates `on_exit` claims; null when all hold, else what failed. */
  checkOnExit(): Promise<string | null>;
}

/**
 * What the loop writes down about a run as it goes: its events, its tree, its incidents with
 * every transition, diagnosis, decision, action and verification. Best-effort: a write that
 * fails never reaches the loop. The run's start and end are the command's (RunRecords).
 */
export interface RunRecorder {
  update(changes: {
    session_id?: string;
    adapter?: string;
    outcome?: string;
    reason?: string;
    error_code?: string | null;
  }): void;
  /** Must not wait on the store: it is called on the output path. */
  event(stream: string, kind: string, raw: string, truncated: boolean, data: object | null): void;
  undelivered(stream: string, problem: string): void;
  observation(processes: ProcessInfo[]): void;
  openIncident(kind: SignalKind, message: string, evidence: SignalEvidence): Incident;
  /** Applies one incident state-machine event; false (and nothing recorded) when it does not apply. */
  move(incident: Incident, event: IncidentEvent, reason: string, evidence?: object): boolean;
  diagnosis(
    incident: Incident,
    diagnosis: { action: string; rationale: string },
    source: 'rules' | 'external' | 'external-refused',
    detail?: object,
  ): void;
  decision(incident: Incident, decision: PolicyDecision): void;
  action(incident: Incident, kind: string, target: object | null, result: string, detail: object): void;
  verification(incident: Incident, verdict: string, detail: string): void;
  evidence(claim: string, verdict: string, reason: string): void;
}

/** Answers of `deadman approve`/`deny` for this run's incidents (io/approval-inbox.ts). */
export interface ApprovalInbox {
  /** The answer waiting for this run's incident, removed as it is taken; null when there is none (or it is refused). */
  take(incidentId: number): ApprovalAnswer | null;
  /** The commands that answer this run's incident, as a person must type them. */
  commands(incidentId: number): { approve: string; deny: string };
  /** At the run's end: an answer that came after its last poll expires with it. */
  discard(): void;
}

/** The verification of a recovery that ended the pass before, settled by this pass (resumed-verification.ts). */
export interface ResumedCheck {
  readonly verdict: 'RESOLVED' | 'ESCALATED' | null;
  /** One tick's news: the attempts just taken, whether a turn completed, the kinds of this pass's open incidents. */
  tick(attempts: readonly Attempt[], turnCompleted: boolean, openKinds: readonly string[]): Promise<void>;
  ended(code: number | null, turnCompleted: boolean, openKinds: readonly string[]): void;
}

/** Every edge one pass talks to (built by lib/commands/run/pass-ports.ts). */
export interface PassPorts {
  clock: LoopClock;
  notifier: SdNotifier;
  logger: Logger;
  records: RunRecorder;
  spawn: Spawner;
  signals: SignalSource;
  forward: OutputForwarder;
  every: Repeater;
  makeTree(rootPid: number, runTag: string): ProcessTree;
  adapter(): Adapter;
  /** Present while the adapter may still be upgraded from the first stdout line; resolves true when it was. */
  sniff?: (firstLine: string) => Promise<boolean>;
  onSession(sessionId: string): void;
  /** The agent completed a turn (its process may go on to the next): the revive count starts over. */
  onTurnCompleted?(): void;
  evidence: EvidenceGate;
  portAccepts(port: number): Promise<boolean>;
  /** The external diagnostician, when one is configured. */
  consult?: Consult | undefined;
  /**
   * A fingerprint of the work tree (git status and the changed paths' stat), null outside one,
   * taken at the moment it is asked for; each attempt carries the one taken when it ended.
   */
  workspace?: (() => WorkspaceAnswer) | undefined;
  approvals?: ApprovalInbox | undefined;
  /** The run's own alerts (commands/run/run-alerts.ts), told every incident transition by `records`. */
  alerts?: { settled(): Promise<void> } | undefined;
  resumed?: SupervisorPorts['resumed'];
  /**
   * Told the run's health, status line and how long the output has been quiet (ms) at every
   * status update: the health file behind `deadman health` and the metrics textfile.
   */
  health?: (healthy: boolean, status: string, quietMs: number) => void;
  /** V8's heap, collected when a flood of output has grown it, and compacted when output is quiet (output/flood-collection.ts). */
  heap?: HeapPort;
}

/** The size of V8's heap, and a full collection of it. */
export interface HeapPort {
  usedBytes(): number;
  collect(): void;
  /** A last-resort collection: it also shrinks the young generation and returns freed pages (output/flood-collection.ts). */
  compact(): void;
}

/** What the supervisor (one tick: observe → detect → decide → act → verify) needs. */
export interface SupervisorPorts {
  monotonic(): number;
  tree: Pick<ProcessTree, 'observe' | 'terminate'>;
  records: RunRecorder;
  logger: Logger;
  consult?: Consult | undefined;
  /** Answers of `deadman approve`/`deny` for incidents AWAITING_APPROVAL. */
  approvals?: ApprovalInbox | undefined;
  /** The recovery of the pass before (a resume, a respawn), judged by this pass. */
  resumed?: ResumedCheck | null | undefined;
}
