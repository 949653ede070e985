/**
 * The one exit-code contract. Every command maps its outcome through here, the shipped units
 * list DO_NOT_RESTART in RestartPreventExitStatus=, and docs/exit-codes.md explains each code.
 *
 * 0–125 are the child's own code passed through; 128+N means the child died of signal N.
 * deadman's own codes come from sysexits(3) where one fits, so they rarely collide with a
 * child's; when they do, the run's row in the database (`outcome`) tells them apart.
 */
export const ExitCode = {
  OK: 0,
  /** `deadman check`: at least one job needs attention; `deadman replay`: the trace's expected signals did not happen. */
  ATTENTION: 1,
  /** Command line not understood (EX_USAGE). */
  USAGE: 64,
  /** The child exited 0 but its evidence did not hold: green but dead (EX_DATAERR). */
  GREEN_BUT_DEAD: 65,
  /** The revive budget is spent; restarting would only burn tokens (EX_UNAVAILABLE). */
  DO_NOT_RESTART: 69,
  /** A bug or an unexpected failure inside deadman itself (EX_SOFTWARE). */
  INTERNAL: 70,
  /** The state directory (or the database's directory) cannot be created or written (EX_CANTCREAT). */
  CANT_CREATE: 73,
  /** The database cannot be read: damaged, not SQLite, or from a newer deadman (EX_IOERR). */
  IO_ERROR: 74,
  /** deadman stopped a stalled run and wants to be restarted; the revive marker stays (EX_TEMPFAIL). */
  STALLED_RESTART: 75,
  /** The configuration (file or flags) is invalid (EX_CONFIG). */
  CONFIG: 78,
  /** `--timeout` expired, as timeout(1) reports it. */
  TIMEOUT: 124,
  /** The command exists but could not be executed, as a shell reports it. */
  CANNOT_EXECUTE: 126,
  /** The command was not found, as a shell reports it. */
  NOT_FOUND: 127,
} as const;

/** Exit codes that must not trigger `Restart=on-failure`: retrying cannot help. */
export const NO_RESTART_CODES = [
  ExitCode.USAGE,
  ExitCode.GREEN_BUT_DEAD,
  ExitCode.DO_NOT_RESTART,
  ExitCode.CONFIG,
] as const;

/** The shell convention for a child killed by a signal. */
export function exitCodeForSignal(signalNumber: number): number {
  return 128 + signalNumber;
}

/**
 * An expected failure with a one-line message for the operator. The CLI prints
 * `deadman: <message>` and exits with `exitCode`; anything else is a bug (exit 70).
 */
export class DeadmanError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number) {
    super(message);
    this.name = 'DeadmanError';
    this.exitCode = exitCode;
  }
}

export function configError(message: string): DeadmanError {
  return new DeadmanError(message, ExitCode.CONFIG);
}

export function usageError(message: string): DeadmanError {
  return new DeadmanError(message, ExitCode.USAGE);
}
