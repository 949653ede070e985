/**
 * deadman's own lines, as the loop and the edges write them; io/log.ts is the real one (stderr,
 * with journald priorities), a test's fake another. Types only: defined below io and the loop
 * so both may import them (supervise/ports.ts re-exports it as the loop's port).
 */

export type Level = 'error' | 'warn' | 'notice' | 'info' | 'debug';

export interface Logger {
  log(level: Level, message: string): void;
  /** Where the duties of the state directory report their failures (one line per cause); absent: each says its own. */
  faults?: FaultReporter;
}

/** What the state directory is used for: each duty says its failure through the one fault reporter (io/fault-reporter.ts). */
export type Duty = 'recording' | 'revive marker' | 'health file';

export interface FaultReporter {
  /** `duty` failed at `path`; `line` says it when the cause is not the state directory itself. */
  fault(duty: Duty, path: string, line: string): void;
  /** `duty` works again: its next failure is said again. */
  cleared(duty: Duty): void;
}
