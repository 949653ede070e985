import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTrace, type Trace } from '../../core/session/trace.ts';
import { usageError } from '../../exit-codes.ts';
import { packageFile } from '../files/package-files.ts';

/**
 * Trace files: the traces shipped in the package (`contrib/traces/*.jsonl`, found from this module's
 * own location so replay works from any directory) and the ones `deadman run --record` writes.
 */

/** The package's contrib/traces/ folder. */
export const SHIPPED_TRACES = packageFile('contrib/traces/');

export function shippedTraceNames(dir = SHIPPED_TRACES): string[] {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.jsonl'))
        .map((f) => f.slice(0, -'.jsonl'.length))
        .sort()
    : [];
}

/** A trace by path, or by the name of a shipped one; a bad one is a usage error naming the file and the line. */
export function readTrace(nameOrPath: string, dir = SHIPPED_TRACES): { name: string; trace: Trace } {
  const shipped = join(dir, `${nameOrPath}.jsonl`);
  const path = existsSync(nameOrPath) ? nameOrPath : existsSync(shipped) ? shipped : null;
  if (path === null) {
    throw usageError(
      `trace ${JSON.stringify(nameOrPath)} not found: give a trace file or one of the shipped traces (${shippedTraceNames(dir).join(', ')})`,
    );
  }
  const parsed = parseTrace(readFileSync(path, 'utf8'));
  if (!parsed.ok) throw usageError(`trace ${path}: ${parsed.problem}`);
  return { name: path === shipped ? nameOrPath : path, trace: parsed.trace };
}
