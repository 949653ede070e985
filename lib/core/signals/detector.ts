import type { Observation } from '../process/process-info.ts';
import type { TreeProgress } from '../detect/process-progress.ts';
import type { ActivityFloors } from '../detect/tree-activity.ts';
import type { HungFinding } from '../detect/hung.ts';
import type { UsageLimitSeen } from '../detect/usage-limit.ts';
import type { UsageTotals } from '../detect/session-budget.ts';
import type { Attempt } from '../detect/no-progress.ts';

/**
 * What a detector is: a pure rule over what the run saw, run every tick. A stateful one
 * (a streak of identical failures, a count of attempts without progress) keeps its state here too — `init`, `fold`
 * over the attempts finished since the last tick, `detect` — so the supervisor holds each
 * detector's state without knowing what it is. Its kind is its row's (registry.ts).
 */

export interface DetectorSettings {
  inactivityMs: number;
  timeoutMs: number;
  hungTimeoutMs: number;
  readyTimeoutMs: number;
  /** How long an agent that printed its final result may take to exit (0: never stopped for it). */
  exitGraceMs: number;
  /** The session budget's limits; 0 is off. */
  budget: { tokens: number; costUsd: number };
  ignore: readonly RegExp[];
  /** With an agent adapter, a hung target needs an open tool call it belongs to (lib/core/detect/tool-ownership.ts). */
  agent: () => boolean;
  /** The agent's name for messages (`no codex output for 3s`); null or unset for a plain command. */
  agentName?: () => string | null;
  /** When the owned tree counts as working (CPU and I/O floors per window). */
  activity: ActivityFloors;
}

/** Facts the run learns outside the tree poll: readiness, and an evidence claim that stayed dead past its grace. */
export interface RunFacts {
  ready: boolean;
  evidenceDead: string | null;
}

/** The run's one observation history, as detectors read it (lib/supervise/tick/observation-history.ts keeps it). */
export interface ObservedTree {
  latest: Observation | null;
  progress: TreeProgress;
  persistent: ReadonlySet<string>;
  lastTreeActivityAt: number;
}

/** What the output said so far, as detectors read it (lib/supervise/output/output.ts keeps it). */
export interface ObservedOutput {
  lastOutputAt: number;
  openTools: ReadonlyMap<string, number>;
  openToolCommands: ReadonlyMap<string, string>;
  openToolWindows: ReadonlyMap<string, number>;
  firstToolAt: number | null;
  finishedAt: number | null;
  failed: string | null;
  usageLimit: UsageLimitSeen | null;
  creditExhausted: { message: string } | null;
  /** When the agent's last word was that it compacts its context (monotonic ms); else null. */
  compactingAt: number | null;
  usage: UsageTotals;
}

export interface DetectorInput {
  now: number;
  startedAt: number;
  history: ObservedTree;
  output: Readonly<ObservedOutput>;
  facts: RunFacts;
  settings: DetectorSettings;
}

/** What a detector found; the supervisor adds the kind and the fingerprint. */
export interface Found {
  message: string;
  /** A hung process: the subtree to terminate. */
  finding?: HungFinding;
  /** A repeated failure: the rule text the resumed agent is given. */
  guidance?: string;
}

export interface Detector<State = null> {
  /** The state before anything was seen (null for a detector that keeps none). */
  init: State;
  /** Folds the attempts finished since the last tick; `workspace` answers for those that carry no fingerprint (asked at most once a tick). */
  fold?(state: State, attempts: readonly Attempt[], workspace: () => string | null): State;
  detect(input: DetectorInput, state: State): Found | null;
}

/** The workspace fingerprint an attempt was judged by: its own, else the one taken now. */
export function workspaceOf(attempt: Attempt, now: () => string | null): string | null {
  return attempt.workspace !== undefined ? attempt.workspace : now();
}
