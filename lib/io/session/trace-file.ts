import { closeSync, existsSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTrace, traceLine, type Trace, type TraceEntry } from '../../core/session/trace.ts';
import { usageError } from '../../exit-codes.ts';

/**
 * Trace files: the traces shipped in the package (`traces/*.jsonl`, found from this module's
 * own location so replay works from any directory) and the ones `deadman run --record` writes.
 */

/** The package's traces/ folder: from dist/lib/io/session/ up to the package root. */
export const SHIPPED_TRACES = fileURLToPath(new URL('../../../../traces/', import.meta.url));

export function shippedTraceNames(dir = SHIPPED_TRACES): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.jsonl')).map((f) => f.slice(0, -'.jsonl'.length)).sort() : [];
}

/** A trace by path, or by the name of a shipped one; a bad one is a usage error naming the file and the line. */
export function readTrace(nameOrPath: string, dir = SHIPPED_TRACES): { name: string; trace: Trace } {
  const shipped = join(dir, `${nameOrPath}.jsonl`);
  const path = existsSync(nameOrPath) ? nameOrPath : existsSync(shipped) ? shipped : null;
  if (path === null) {
    throw usageError(`trace ${JSON.stringify(nameOrPath)} not found: give a trace file or one of the shipped traces (${shippedTraceNames(dir).join(', ')})`);
  }
  const parsed = parseTrace(readFileSync(path, 'utf8'));
  if (!parsed.ok) throw usageError(`trace ${path}: ${parsed.problem}`);
  return { name: path === shipped ? nameOrPath : path, trace: parsed.trace };
}

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
