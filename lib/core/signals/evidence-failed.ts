import { ExitCode } from '../../exit-codes.ts';
import { FOR_A_PERSON, type SignalRow } from './signal-row.ts';

export const EVIDENCE_FAILED = {
  means: 'the command exited 0 but its evidence did not hold: green but dead',
  detector: null,
  raisedBy: 'lib/supervise/run/outcome.ts, once the command exited 0',
  diagnosis: FOR_A_PERSON,
  stall: 'configured',
  stallLog: 'error',
  status: { word: 'GREEN BUT DEAD' },
  end: { outcome: 'green-but-dead', exitCode: ExitCode.GREEN_BUT_DEAD },
  errorCode: 'evidence_failed',
  severity: 'critical',
  advice:
    'The run reported success but its evidence did not hold (green but dead): make the job fail loudly when it produces nothing, and check the claim still matches what it writes.',
} as const satisfies SignalRow;
