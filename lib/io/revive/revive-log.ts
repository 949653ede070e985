import { closeSync, openSync, readSync, fstatSync } from 'node:fs';
import { join } from 'node:path';
import { createAdapter, type AdapterOptions } from '../../core/adapters/index.ts';
import { markCompleted, markInterrupted, type Marker } from '../../core/revive/marker.ts';
import { systemClock } from '../clock.ts';
import { ensurePrivateDir } from '../paths.ts';
import { isOwnerAlive } from './markers.ts';

/**
 * A resume that `deadman revive` launched detached writes its output to a log under the
 * state dir. Nobody waits for it, so the next reader of its marker learns from that log how
 * it ended: the adapter's completion event means completed, anything else interrupted.
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
export async function outputShowsCompletion(lines: readonly string[], marker: Pick<Marker, 'adapter'>, options: AdapterOptions = {}): Promise<boolean> {
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

export type StartCheck =
  | { outcome: 'started'; sessionId: string }
  | { outcome: 'session_mismatch'; sessionId: string }
  | { outcome: 'exited'; exitCode: number }
  | { outcome: 'unconfirmed' };

/**
 * Watches a detached resume's log until the agent names its session (the same one: started;
 * another: a new session was opened instead), the process exits, or the time is up. The
 * hook never waits longer than `timeoutMs`.
 */
export async function confirmStart(log: string, marker: Pick<Marker, 'adapter' | 'sessionId'>, exited: Promise<number>, timeoutMs: number, options: AdapterOptions = {}): Promise<StartCheck> {
  const adapter = await createAdapter(marker.adapter, options);
  let exitCode: number | null = null;
  void exited.then((code) => (exitCode = code));
  const deadline = systemClock.monotonic() + timeoutMs;
  let seen = 0;
  for (;;) {
    const lines = readTail(log) ?? [];
    for (const line of lines.slice(seen)) {
      const session = adapter.parseLine(line).events.find((e) => e.type === 'session');
      if (session) return { outcome: session.sessionId === marker.sessionId ? 'started' : 'session_mismatch', sessionId: session.sessionId };
    }
    seen = lines.length;
    if (exitCode !== null) return { outcome: 'exited', exitCode };
    if (systemClock.monotonic() >= deadline) return { outcome: 'unconfirmed' };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A detached resume whose process has ended becomes completed or interrupted; anything else is returned as is. */
export async function settleEndedResume(marker: Marker, now: number, options: AdapterOptions = {}): Promise<Marker> {
  if (marker.state !== 'running' || marker.detachedLog === null || isOwnerAlive(marker.owner)) return marker;
  const lines = readTail(marker.detachedLog);
  if (lines !== null && (await outputShowsCompletion(lines, marker, options))) return markCompleted(marker, now);
  return markInterrupted(marker, 'the detached resume ended without completing its turn', now);
}
