import { findHungSubtree, type HungFinding } from '../core/detect/hung.ts';
import { detectInactivity } from '../core/detect/inactivity.ts';
import { detectFinishedNotExited } from '../core/detect/finished-not-exited.ts';
import { detectUsageLimit } from '../core/detect/usage-limit.ts';
import { detectRepeatedFailure, type RepeatState } from '../core/detect/repeated-failure.ts';
import { detectNoProgress, type AttemptProgress } from '../core/detect/no-progress.ts';
import { detectBudgetRisk } from '../core/detect/session-budget.ts';
import { formatDuration } from '../core/time/duration.ts';
import type { SignalKind } from '../core/incident/kinds.ts';
import type { ObservationHistory } from './observation-history.ts';
import type { OutputState } from './output.ts';
import type { ActivityFloors } from '../core/detect/tree-activity.ts';

/**
 * Detectors as plug-ins. Each is a pure function of (history, output, facts, now, settings)
 * that returns one signal or nothing; the rules themselves live in lib/core/detect, so a
 * detector here only says what it reads. The supervisor runs them in this order every tick
 * and opens at most one incident per signal fingerprint.
 */

export interface DetectorSettings {
  inactivityMs: number;
  timeoutMs: number;
  hungTimeoutMs: number;
  readyTimeoutMs: number;
  /** How long an agent that printed its final result may take to exit (0: never stopped for it). */
  exitGraceMs: number;
  /** SESSION_BUDGET_RISK limits; 0 is off. */
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

export interface DetectorInput {
  now: number;
  startedAt: number;
  history: ObservationHistory;
  output: OutputState;
  facts: RunFacts;
  settings: DetectorSettings;
  /** The streak of identical failures with an unchanged workspace (the supervisor keeps it). */
  repeats: RepeatState;
  /** Attempts since the workspace last changed that brought no new result. */
  progress: AttemptProgress;
}

export interface Signal {
  kind: SignalKind;
  /** One incident per fingerprint: a signal whose fingerprint has an open incident feeds that incident. */
  fingerprint: string;
  message: string;
  /** HUNG_PROCESS: the subtree to terminate. */
  finding?: HungFinding;
  /** REPEATED_FAILURE: the rule text the resumed agent is given. */
  guidance?: string;
}

export type Detector = (input: DetectorInput) => Signal | null;

/** Only one hung incident at a time: a second attempt may target a respawned subtree, and still counts against the same incident. */
export const hungProcess: Detector = (input) => {
  const { history, output, settings } = input;
  if (!history.latest) return null;
  const finding = findHungSubtree(history.latest, history.progress, {
    hungTimeoutMs: settings.hungTimeoutMs,
    lastOutputAt: output.lastOutputAt,
    baseline: history.persistent,
    ignore: settings.ignore,
    openTools: [...output.openTools].map(([toolId, startedAt]) => ({ toolId, startedAt, command: output.openToolCommands.get(toolId) ?? null })),
    firstToolAt: output.firstToolAt,
    requireOpenTool: settings.agent(),
  });
  return finding && { kind: 'HUNG_PROCESS', fingerprint: 'HUNG_PROCESS', message: finding.reason, finding };
};

export const outputInactivity: Detector = ({ now, history, output, settings }) => {
  const found = detectInactivity({ now, limitMs: settings.inactivityMs, lastOutputAt: output.lastOutputAt, lastTreeActivityAt: history.lastTreeActivityAt, agent: settings.agentName?.() ?? null });
  return found && { kind: 'OUTPUT_INACTIVITY', fingerprint: 'OUTPUT_INACTIVITY', message: found.message };
};

export const wallTimeout: Detector = ({ now, startedAt, settings }) =>
  settings.timeoutMs > 0 && now - startedAt >= settings.timeoutMs
    ? { kind: 'TIMEOUT', fingerprint: 'TIMEOUT', message: `wall-time limit of ${formatDuration(settings.timeoutMs)} reached` }
    : null;

export const notReady: Detector = ({ now, startedAt, facts, settings }) =>
  !facts.ready && now - startedAt > settings.readyTimeoutMs
    ? { kind: 'NOT_READY', fingerprint: 'NOT_READY', message: `not ready after ${Math.round(settings.readyTimeoutMs / 1000)}s` }
    : null;

export const evidenceStale: Detector = ({ facts }) =>
  facts.evidenceDead === null ? null : { kind: 'EVIDENCE_STALE', fingerprint: 'EVIDENCE_STALE', message: facts.evidenceDead };

/** Only for agents: a generic command's turn-end pattern marks a unit of work, not the end of the run. */
export const finishedNotExited: Detector = ({ now, output, settings }) => {
  if (!settings.agent()) return null;
  const found = detectFinishedNotExited({ now, finishedAt: output.finishedAt, failed: output.failed, graceMs: settings.exitGraceMs });
  return found && { kind: 'FINISHED_NOT_EXITED', fingerprint: 'FINISHED_NOT_EXITED', message: found.message };
};

export const usageLimit: Detector = ({ output }) => {
  const found = detectUsageLimit(output.usageLimit);
  return found && { kind: 'USAGE_LIMIT', fingerprint: 'USAGE_LIMIT', message: found.message };
};

/** "At least 3 times" (issue 14): fewer is an agent still trying; more burns turns. */
const REPEAT_THRESHOLD = 3;

export const repeatedFailure: Detector = ({ repeats }) => {
  const found = detectRepeatedFailure(repeats, REPEAT_THRESHOLD);
  return found && { kind: 'REPEATED_FAILURE', fingerprint: 'REPEATED_FAILURE', message: found.message, guidance: found.guidance };
};

/** "At least 4 completed attempts" (issue 14). */
const NO_PROGRESS_THRESHOLD = 4;

export const noProgress: Detector = ({ progress }) => {
  const found = detectNoProgress(progress, NO_PROGRESS_THRESHOLD);
  return found && { kind: 'NO_PROGRESS', fingerprint: 'NO_PROGRESS', message: found.message };
};

export const sessionBudget: Detector = ({ output, settings }) => {
  const found = detectBudgetRisk(output.usage, settings.budget);
  return found && { kind: 'SESSION_BUDGET_RISK', fingerprint: 'SESSION_BUDGET_RISK', message: found.message };
};

/** The agent's own word first: a usage limit or a finished result explains any silence after it. */
export const DETECTORS: readonly Detector[] = [usageLimit, sessionBudget, finishedNotExited, repeatedFailure, noProgress, hungProcess, outputInactivity, wallTimeout, notReady, evidenceStale];
