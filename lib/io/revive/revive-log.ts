import { closeSync, openSync, readSync, fstatSync } from 'node:fs';
import { join } from 'node:path';
import { createAdapter, type AdapterOptions } from '../../core/adapters/index.ts';
import { markCompleted, markInterrupted, type Marker } from '../../core/revive/marker.ts';
import { ensurePrivateDir } from '../files/paths.ts';
import { isOwnerAlive } from '../process/process-identity.ts';

/**
 * Revive logs under the state dir: a supervising run that `deadman revive` started detached
 * writes its output there. A marker an older deadman left "running" for a resume it launched
 * unsupervised names its log (detachedLog): the next reader learns from that log how it ended,
 * the adapter's completion event meaning completed, anything else interrupted.
 */

/** Only the end of a log matters (the completion is the last event); this bounds the read. */
const TAIL_BYTES = 4 * 1024 * 1024;

export function reviveLogPath(stateDir: string, name: string, now: number): string {
  const dir = join(stateDir, 'revive-logs');
  ensurePrivateDir(dir);
  return join(dir, `${name}-${new Date(now).toISOString().replace(/[:.]/g, '-')}.log`);
}

/** The last lines of a file (at most TAIL_BYTES), or null when it cannot be read. */
export function readTail(path: string, bytes = TAIL_BYTES): string[] | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - bytes);
    const buffer = Buffer.alloc(size - start);
    readSync(fd, buffer, 0, buffer.length, start);
    const lines = buffer.toString('utf8').split('\n');
    if (start > 0) lines.shift(); // the first line is cut
    return lines.filter((line) => line !== '');
  } finally {
    closeSync(fd);
  }
}

/** Whether the adapter saw the agent's turn end well, from its output. */
export async function outputShowsCompletion(
  lines: readonly string[],
  marker: Pick<Marker, 'adapter'>,
  options: AdapterOptions = {},
): Promise<boolean> {
  const adapter = await createAdapter(marker.adapter, options);
  let completed = false;
  for (const line of lines) {
    for (const event of adapter.parseLine(line).events) {
      if (event.type === 'turn_completed') completed = true;
      if (event.type === 'turn_failed' || event.type === 'turn_started') completed = false;
    }
  }
  return completed;
}

/** A detached resume whose process has ended becomes completed or interrupted; anything else is returned as is. */
export async function settleEndedResume(marker: Marker, now: number, options: AdapterOptions = {}): Promise<Marker> {
  if (marker.state !== 'running' || marker.detachedLog === null || isOwnerAlive(marker.owner)) return marker;
  const lines = readTail(marker.detachedLog);
  if (lines !== null && (await outputShowsCompletion(lines, marker, options))) return markCompleted(marker, now);
  return markInterrupted(marker, 'the detached resume ended without completing its turn', now);
}
