import { ExitCode } from '../../exit-codes.ts';
import { FOR_A_PERSON, type SignalRow } from './signal-row.ts';

/**
 * Halted for a person. The kind shares its name with the action that enters it (actions.ts):
 * a diagnostician's HALT_AND_ESCALATE stops the run as this kind's stall, and a spent revive
 * budget opens an incident of this kind. Both names are stored and shown, so neither changes.
 */
export const HALT_AND_ESCALATE = {
  means: 'a person must look before it runs again: the revive budget is spent, or a diagnostician halted the run',
  detector: null,
  raisedBy:
    'lib/supervise/records/records.ts (a run refused for a spent revive budget), or the HALT_AND_ESCALATE action',
  diagnosis: FOR_A_PERSON,
  endedBy: 'HALT_AND_ESCALATE',
  stall: 'halt',
  stallLog: 'error',
  status: { word: 'HALTED', doing: 'stopping the tree (exit 69: do not restart)' },
  end: { outcome: 'halted', exitCode: ExitCode.DO_NOT_RESTART },
  errorCode: 'halted',
  severity: 'critical',
  advice:
    "The revive budget is spent: the session keeps being interrupted — find the common cause in the runs' exits (OOM, a crashing tool, repeated stalls) before raising `revive.max_revives`.",
} as const satisfies SignalRow;
