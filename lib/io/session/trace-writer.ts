import { closeSync, openSync, writeSync } from 'node:fs';
import type { TraceEntry } from '../../core/session/trace.ts';
import { traceLine } from '../../core/session/trace-settings.ts';
import { usageError } from '../../exit-codes.ts';

/** Appends trace lines to a file as they happen, so a run killed halfway still leaves its trace. */
export function openTraceWriter(path: string): { write(entry: TraceEntry): void; close(): void } {
  let fd: number;
  try {
    fd = openSync(path, 'w', 0o600);
  } catch (error) {
    throw usageError(`--record ${path}: cannot write it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); give a writable file path`);
  }
  return {
    write: (entry) => void writeSync(fd, `${traceLine(entry)}\n`),
    close: () => closeSync(fd),
  };
}
