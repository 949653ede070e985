import { ExitCode } from '../../exit-codes.ts';
import { detectBudgetRisk } from '../detect/session-budget.ts';
import type { Detector } from './detector.ts';
import type { SignalRow } from './signal-row.ts';

const sessionBudget: Detector = {
  init: null,
  detect: ({ output, settings }) => detectBudgetRisk(output.usage, settings.budget),
};

export const SESSION_BUDGET_RISK = {
  means: "the agent's reported tokens or cost crossed `budget.tokens` / `budget.cost_usd`",
  detector: sessionBudget,
  raisedBy: 'lib/core/detect/session-budget.ts',
  diagnosis: {
    action: 'CHECKPOINT_AND_RESPAWN',
    rationale:
      "the session is over its budget; a fresh session with a handoff carries the task on without the old context's cost",
  },
  consult: {
    CHECKPOINT_AND_RESPAWN: 'CHECKPOINT_AND_RESPAWN',
    OBSERVE: 'OBSERVE',
    HALT_AND_ESCALATE: 'HALT_AND_ESCALATE',
  },
  endedBy: 'CHECKPOINT_AND_RESPAWN',
  stall: 'respawn',
  interrupts: true,
  stallLog: 'error',
  status: { word: 'BUDGET', doing: 'interrupting the agent to respawn it with a handoff' },
  // The old session is closed on purpose (clean: its marker completes), so the next pass starts fresh, not a resume.
  end: { outcome: 'respawn', exitCode: ExitCode.STALLED_RESTART, clean: true },
  nextPass: 'respawn',
  errorCode: 'session_budget_risk',
  severity: 'critical',
  advice:
    'The session ran over its token or cost budget: split the task, or raise `budget.tokens` / `budget.cost_usd` if the work needs it.',
} as const satisfies SignalRow;
