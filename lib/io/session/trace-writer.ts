import { closeSync, constants, openSync, writeSync } from 'node:fs';
import type { TraceEntry } from '../../core/session/trace.ts';
import { traceLine } from '../../core/session/trace-settings.ts';
import { usageError } from '../../exit-codes.ts';

/**
 * Appends trace lines to a file as they happen, so a run killed halfway still leaves its trace.
 * The file is new, created 0600 in the one open (O_CREAT|O_EXCL|O_NOFOLLOW): a trace holds what
 * the work printed, so it never lands in a file someone else made, keeps an existing file's
 * looser mode, or follows a symlink planted at its path. Anything there already is refused.
 */
export function openTraceWriter(path: string): { write(entry: TraceEntry): void; close(): void } {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw usageError(
      code === 'EEXIST'
        ? `--record ${path}: something is already there (a file or a symlink); a trace is only written to a new file: give a path that does not exist yet`
        : `--record ${path}: cannot create it (${code ?? (error as Error).message}); give a new file path in a writable directory`,
    );
  }
  return {
    write: (entry) => void writeSync(fd, `${traceLine(entry)}\n`),
    close: () => closeSync(fd),
  };
}
