import type { AdapterName } from '../../core/adapters/agent-events.ts';
import type { Marker, ReviveDecision } from '../../core/revive/marker.ts';
import { buildResumeArgv, reviveMessage } from '../../core/revive/resume-argv.ts';
import { reviveOpening } from '../../core/revive/revive-opening.ts';
import type { Logger } from '../../core/ports/logger.ts';
import type { Config } from '../../core/config/config.ts';
import type { RunRecords } from '../../supervise/records/records.ts';
import type { Context } from '../shared/command-context.ts';

/**
 * What the revive decision of `deadman run` reads (ReviveInput) and decides (StartDecision):
 * start a command (a session's resume: resumeStart), or refuse (Refusal).
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

/** The resume of the marker's session, built from the command line given. */
export function resumeStart(
  input: ReviveInput,
  previous: Marker,
  decision: Extract<ReviveDecision, { revive: true }>,
): Extract<StartDecision, { refusal: null }> {
  const { config } = input;
  const message = reviveMessage(previous.task, config.revive.message, reviveOpening(previous));
  // The command line given wins: the resume is built from it (equal in identity to the marker's), never from the file.
  const argv = buildResumeArgv(
    { ...previous, argv: input.command, cwd: input.cwd },
    { message, template: config.revive.command, interactive: input.interactive === true },
  );
  return {
    refusal: null,
    argv,
    adapter: previous.adapter,
    sessionId: decision.sessionId,
    note: `revived session ${decision.sessionId} (${decision.attempt}/${decision.budget})`,
  };
}
