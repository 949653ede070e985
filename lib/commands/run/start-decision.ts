import type { AdapterName } from '../../core/adapters/agent-events.ts';
import type { Logger } from '../../core/ports/logger.ts';
import type { Config } from '../../core/config/config.ts';
import type { RunRecords } from '../../supervise/records/records.ts';
import type { Context } from '../shared/command-context.ts';

/**
 * What the revive decision of `deadman run` reads (ReviveInput) and decides (StartDecision):
 * start a command, or refuse (Refusal).
 */

export interface Refusal {
  exitCode: number;
  outcome: 'revive-exhausted' | 'owned-elsewhere';
  reason: string;
}

/** What the revive decision reads about the run about to start. */
export interface ReviveInput {
  name: string;
  command: string[];
  cwd: string;
  config: Config;
  context: Context;
  records: RunRecords;
  logger: Logger;
  /** `deadman agent` in a terminal: an interrupted session resumes as the agent's TUI (interactive-resume.ts), a spent budget starts afresh. */
  interactive?: boolean;
}

/** What the marker decided, once: refuse, or start `argv` (the resume of `sessionId` when that is set). */
export type StartDecision =
  | { refusal: Refusal }
  | { refusal: null; argv: string[]; adapter: AdapterName | null; sessionId: string | null; note: string };
