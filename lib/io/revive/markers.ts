import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Marker, MarkerOwner } from '../../core/revive/marker.ts';
import { MARKER_VERSION } from '../../core/revive/marker-version.ts';
import { ensurePrivateDir } from '../paths.ts';
import { isSameProcessAlive, ownStartTime } from '../process/process-identity.ts';

/**
 * Revive markers on disk: `<markerDir>/<name>.json`, mode 0600 in a 0700 directory (they
 * hold prompts and command lines). Written atomically, so a crash mid-write leaves the old
 * marker or the new one, never half of one; read tolerantly, so a damaged file is one
 * warning and no revive, never a crash.
 */

export type MarkerRead =
  | { status: 'missing'; name: string }
  | { status: 'ok'; name: string; marker: Marker }
  /** `problem` is one line, ready to log as a warning. */
  | { status: 'problem'; name: string; problem: string };

const MAX_MARKER_BYTES = 16 * 1024 * 1024;
const NAME = /^[A-Za-z0-9_.@-]{1,100}$/;

export function markerPath(markerDir: string, name: string): string {
  if (!NAME.test(name)) throw new Error(`marker name ${JSON.stringify(name)} is not a plain name`);
  return join(markerDir, `${name}.json`);
}

/** Temp file in the same directory, fsync, rename over the old one, fsync the directory. */
export function writeMarker(markerDir: string, marker: Marker): void {
  const target = markerPath(markerDir, marker.name);
  ensurePrivateDir(markerDir);
  const temp = join(markerDir, `.${marker.name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(marker, null, 2)}\n`);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temp);
    throw error;
  }
  closeSync(fd);
  renameSync(temp, target);
  const dir = openSync(markerDir, 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

/**
 * True when this name's marker is a completed one of this version: nothing to revive, and the
 * next run replaces it. Checked before `readMarker` so that a job run again and again does not
 * load the marker schema (zod) at every start; any other marker is read and validated in full.
 */
export function markerIsCompleted(markerDir: string, name: string): boolean {
  try {
    const value = JSON.parse(readFileSync(markerPath(markerDir, name), 'utf8')) as { version?: unknown; name?: unknown; state?: unknown };
    return value.version === MARKER_VERSION && value.name === name && value.state === 'completed';
  } catch {
    return false;
  }
}

export async function readMarker(markerDir: string, name: string): Promise<MarkerRead> {
  const path = markerPath(markerDir, name);
  let text: string;
  try {
    if (statSync(path).size > MAX_MARKER_BYTES) return problem(name, path, `is larger than ${MAX_MARKER_BYTES / 1024 / 1024} MiB`);
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { status: 'missing', name };
    return problem(name, path, `cannot be read (${code ?? (error as Error).message})`);
  }
  // zod is loaded only here, when there is a marker to read.
  const { parseMarker } = await import('../../core/revive/marker-schema.ts');
  const parsed = parseMarker(text);
  if (!parsed.ok) return problem(name, path, parsed.problem);
  if (parsed.marker.name !== name) return problem(name, path, `names "${parsed.marker.name}", not "${name}"`);
  return { status: 'ok', name, marker: parsed.marker };
}

function problem(name: string, path: string, why: string): MarkerRead {
  return { status: 'problem', name, problem: `revive marker ${path} ${why}; not reviving "${name}" (its next run replaces the file)` };
}

/** Every marker in the directory, damaged ones included (as problems), sorted by name. */
export async function listMarkers(markerDir: string): Promise<MarkerRead[]> {
  let files: string[];
  try {
    files = readdirSync(markerDir);
  } catch {
    return [];
  }
  const names = files.filter((f) => f.endsWith('.json') && !f.startsWith('.')).map((f) => f.slice(0, -'.json'.length)).filter((n) => NAME.test(n));
  return Promise.all(names.sort().map((name) => readMarker(markerDir, name)));
}

/**
 * True while the owner still runs. With a start time the check survives pid reuse; without
 * one (not Linux) a live pid is taken as the owner, which errs on the side of not reviving.
 */
export function isOwnerAlive(owner: MarkerOwner | null): boolean {
  if (owner === null) return false;
  if (owner.startTime !== null) return isSameProcessAlive(owner.pid, owner.startTime);
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** This process as a marker owner. */
export function currentOwner(): MarkerOwner {
  return { pid: process.pid, startTime: ownStartTime() };
}
