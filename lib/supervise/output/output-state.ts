import type { UsageLimitSeen } from '../../core/detect/usage-limit.ts';
import type { Attempt } from '../../core/detect/no-progress.ts';
import type { UsageTotals } from '../../core/detect/session-budget.ts';

/** What the child's output told the loop so far (OutputTracker in output.ts is its one writer; everyone else reads OutputView). */
export interface OutputState {
  lastOutputAt: number;
  sessionId: string | null;
  openTools: Map<string, number>;
  /** The shell command of each open tool call that has one: evidence of which process is the call's. */
  openToolCommands: Map<string, string>;
  /** Each open tool call's window: when the agent's output before its event came (a process it spawned since may be the call's). */
  openToolWindows: Map<string, number>;
  firstToolAt: number | null;
  /** When a line last matched `ready_pattern` or `ready_port` accepted (told by the pass: ready()), or null. */
  readyAt: number | null;
  /** Bytes read from the child's stdout and stderr so far: its writes into them are not tree I/O. */
  pipeBytes: number;
  completed: boolean;
  failed: string | null;
  /** When the last turn ended (completed or failed), until a new one starts: the agent's final result. */
  finishedAt: number | null;
  /** The agent said its plan or usage limit stops the turn; null until it does. */
  usageLimit: UsageLimitSeen | null;
  /** The agent said its credit or spend limit is spent; null until it does. */
  creditExhausted: { message: string; at: number } | null;
  /** When the agent said it compacts its context, while that is the last thing it said; else null. */
  compactingAt: number | null;
  /** Shell commands and turns completed since the supervisor last took them (at most MAX_PENDING_ATTEMPTS). */
  toolResults: Attempt[];
  /** Older ones dropped from toolResults since the supervisor last took them: it must count afresh. */
  toolResultsLost: number;
  /** The last attempts, for a handoff (bounded). */
  history: Attempt[];
  /** Files the agent's tools wrote, most recently written last, for a handoff (bounded). */
  filesChanged: string[];
  /** What the agent's own telemetry reported in this process. */
  usage: UsageTotals;
}

/** OutputState as its readers see it (the detectors, the supervisor, the pass): nothing in it can be written through this. */
export type OutputView = {
  readonly [K in keyof OutputState]: OutputState[K] extends Map<infer Key, infer Value>
    ? ReadonlyMap<Key, Value>
    : OutputState[K] extends Array<infer Item>
      ? readonly Item[]
      : OutputState[K] extends object | null
        ? Readonly<OutputState[K]>
        : OutputState[K];
};
