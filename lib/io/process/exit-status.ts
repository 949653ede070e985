import { constants } from 'node:os';
import { ExitCode, exitCodeForSignal } from '../../exit-codes.ts';

/** The code a shell reports for a child that ended with Node's (code, signal): its own code, or 128+N when signal N killed it. */
export function shellExitCode(code: number | null, signal: NodeJS.Signals | null): number {
  if (signal) return exitCodeForSignal(constants.signals[signal] ?? 0);
  return code ?? ExitCode.INTERNAL;
}
