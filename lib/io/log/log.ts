import { DeadmanError, ExitCode } from '../../exit-codes.ts';
import type { Duty, Level, Logger } from '../../core/ports/logger.ts';
import { createFaultReporter } from './fault-reporter.ts';

/**
 * deadman's own lines on stderr. When stderr is the journal ($JOURNAL_STREAM names it), each
 * line carries a sd-daemon(3) `<N>` priority prefix so journald files it at the right level;
 * on a terminal or in a file it is plain text. The child's output never passes through here.
 */

const PRIORITY: Record<Level, number> = { error: 3, warn: 4, notice: 5, info: 6, debug: 7 };

export function stderrIsJournal(env: NodeJS.ProcessEnv = process.env): boolean {
  const stream = env.JOURNAL_STREAM;
  if (!stream) return false;
  try {
    const [dev, ino] = stream.split(':');
    const stat = fstat(2);
    return stat !== null && String(stat.dev) === dev && String(stat.ino) === ino;
  } catch {
    return false;
  }
}

function fstat(fd: number): { dev: number; ino: number } | null {
  // Imported lazily through process.binding-free API to keep this module cheap to load.
  const { fstatSync } = process.getBuiltinModule('node:fs') as typeof import('node:fs');
  try {
    return fstatSync(fd);
  } catch {
    return null;
  }
}

export function createLogger(
  write: (text: string) => void = (t) => guardedStderr().write(t),
  journal = stderrIsJournal(),
): Logger {
  return {
    log(level, message) {
      const lines = message.split('\n');
      write(
        lines.map((line) => (journal ? `<${PRIORITY[level]}>deadman: ${line}` : `deadman: ${line}`)).join('\n') + '\n',
      );
    },
  };
}

/** Every line through `redact` first: what deadman journals must not carry the secrets the work saw. */
export function redactedLogger(logger: Logger, redact: (text: string) => string): Logger {
  return { log: (level, message) => logger.log(level, redact(message)), faults: logger.faults };
}

/** `--quiet`: only warnings and errors pass, so a cron line mails nothing while all is well. */
export function problemsOnly(logger: Logger): Logger {
  return {
    log: (level, message) => {
      if (level === 'warn' || level === 'error') logger.log(level, message);
    },
    faults: logger.faults,
  };
}

/** The logger, with one fault reporter for the duties of `stateDir` (see fault-reporter.ts). */
export function withFaultReporter(logger: Logger, stateDir: string): Logger {
  return { log: logger.log, faults: createFaultReporter((line) => logger.log('warn', line), stateDir) };
}

/** A duty's failure at `path`: through the fault reporter when there is one, else its own warning. */
export function reportFault(logger: Logger, duty: Duty, path: string, line: string): void {
  if (logger.faults) logger.faults.fault(duty, path, line);
  else logger.log('warn', line);
}

/**
 * The last word on a failed command: a DeadmanError is one line and its own exit code; anything
 * else is a bug, reported with its stack (the one place a stack trace is right) as exit 70.
 */
export function logFailure(logger: Logger, error: unknown): number {
  if (error instanceof DeadmanError) {
    logger.log('error', error.message);
    return error.exitCode;
  }
  logger.log('error', `internal error: ${(error as Error)?.stack ?? String(error)}`);
  return ExitCode.INTERNAL;
}

/**
 * A reader that goes away (`deadman incidents | head`) is not an error worth a stack trace.
 * Guard only the streams a path writes through: touching process.stdout makes fd 1
 * non-blocking, and `deadman run` copies the child's output to fd 1 itself.
 */
export function exitQuietlyOnEpipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

let stderrGuarded = false;

/**
 * process.stderr, guarded by exitQuietlyOnEpipe from its first use: the stream is built only
 * when a line is said, so a probe that says nothing on stderr loads none of Node's stream stack
 * (some 25 modules, ~10 M instructions; io/output/print-sync.ts; issue 36.1).
 */
export function guardedStderr(): NodeJS.WriteStream {
  if (!stderrGuarded) {
    stderrGuarded = true;
    exitQuietlyOnEpipe(process.stderr);
  }
  return process.stderr;
}
