import { constants } from 'node:os';
import { ExitCode, exitCodeForSignal } from '../../exit-codes.ts';

/** The code a shell reports for a child that ended with Node's (code, signal): its own code, or 128+N when signal N killed it. */
export function shellExitCode(code: number | null, signal: NodeJS.Signals | null): number {
  if (signal) return exitCodeForSignal(constants.signals[signal] ?? 0);
  return code ?? ExitCode.INTERNAL;
}

/** Dies of the signal that stopped us, as an unwrapped command would (systemd counts SIGTERM as a clean stop). */
export function reraise(signal: NodeJS.Signals, store: { close(): void }): never {
  store.close();
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
  // The default action terminates us; if the signal is somehow blocked, exit the shell way.
  process.exit(shellExitCode(null, signal));
}
