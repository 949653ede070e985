import { closeSync, readSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Marker, MarkerOwner } from '../../core/revive/marker.ts';
import { MARKER_VERSION } from '../../core/revive/marker-version.ts';
import { canonicalJson } from '../../core/revive/canonical-json.ts';
import { ensurePrivateDir } from '../files/paths.ts';
import { writeFileAtomically } from '../files/atomic-write.ts';
import { isPidAlive, ownStartTime } from '../process/process-identity.ts';
import { macProblem, markerMac, moveAside } from './marker-trust.ts';
import { untrustedDirReason } from '../files/trusted-dir.ts';
import { openOwnFile } from '../files/directory-key.ts';
import { NAME_PATTERN } from '../../core/config/name-pattern.ts';
import { namesIn, readJsonFile } from '../files/quiet-reads.ts';
import { parseJsonOrUndefined } from '../../core/json/parse-json.ts';

/**
 * Revive markers on disk: `<markerDir>/<name>.json`, mode 0600 in a 0700 directory (they
 * hold prompts and command lines). Written atomically, so a crash mid-write leaves the old
 * marker or the new one, never half of one; read tolerantly, so a damaged file is one
 * warning and no revive, never a crash. Only trusted markers are read (marker-trust.ts): an
 * untrusted one is `refused` and, when the directory itself is sound, moved aside.
 */

export type MarkerRead =
  | { status: 'missing'; name: string }
  | { status: 'ok'; name: string; marker: Marker }
  /** `problem` is one line, ready to log as a warning. */
  | { status: 'problem'; name: string; problem: string }
  /** Not deadman's, or edited since deadman wrote it: one line to log and record; never acted on. */
  | { status: 'refused'; name: string; problem: string };

const MAX_MARKER_BYTES = 16 * 1024 * 1024;

export function markerPath(markerDir: string, name: string): string {
  if (!NAME_PATTERN.test(name)) throw new Error(`marker name ${JSON.stringify(name)} is not a plain name`);
  return join(markerDir, `${name}.json`);
}

/** A temp file of writeFileAtomically (`.<name>.json.<pid>.<hex>.tmp`): the pid says whether its writer still lives. */
const TEMP_FILE = /^\.(.+)\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/**
 * Written atomically (temp file, fsync, rename, fsync the directory) and signed.
 * Refuses (throws) to write into a directory whose markers would not be trusted.
 */
export function writeMarker(markerDir: string, marker: Marker): void {
  const target = markerPath(markerDir, marker.name);
  ensurePrivateDir(markerDir);
  const untrusted = untrustedDirReason(markerDir);
  if (untrusted !== null) throw new Error(`not writing markers there: ${untrusted}`);
  const mac = markerMac(markerDir, canonicalJson(marker));
  writeFileAtomically(target, `${JSON.stringify({ ...marker, mac }, null, 2)}\n`, 0o600);
}

/**
 * True when this name's marker is a completed one of this version: nothing to revive, and the
 * next run replaces it. Checked before `readMarker` so that a job run again and again does not
 * load the marker schema (zod) at every start; any other marker is read and validated in full.
 */
export function markerIsCompleted(markerDir: string, name: string): boolean {
  // A forged "completed" marker can only cause a fresh start of the command given, which is harmless.
  const value = readJsonFile(markerPath(markerDir, name)) as
    { version?: unknown; name?: unknown; state?: unknown } | null | undefined;
  return value?.version === MARKER_VERSION && value.name === name && value.state === 'completed';
}

export interface ReadOptions {
  now?: number;
  /** Move a refused marker aside (false for readers that change nothing: status, dry runs). */
  setAside?: boolean;
}

export async function readMarker(markerDir: string, name: string, options: ReadOptions = {}): Promise<MarkerRead> {
  const path = markerPath(markerDir, name);
  const refuse = (why: string) =>
    refuseMarker(name, path, why, options.setAside === false ? null : (options.now ?? Date.now()));
  const untrusted = untrustedDirReason(markerDir);
  if (untrusted !== null)
    return { status: 'refused', name, problem: `revive marker ${path} refused: ${untrusted}; not reviving "${name}"` };
  let value: unknown;
  try {
    const text = readOwnFile(path);
    if (text === null) return problem(name, path, `is larger than ${MAX_MARKER_BYTES / 1024 / 1024} MiB`);
    value = parseJsonOrUndefined(text);
    if (value === undefined) return problem(name, path, text.trim() === '' ? 'is empty' : 'is cut short or not JSON');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { status: 'missing', name };
    if (code === 'ELOOP') return refuse('is a symlink');
    if (code === 'EUNTRUSTED') return refuse((error as Error).message);
    return problem(name, path, `cannot be read (${code ?? (error as Error).message})`);
  }
  // zod is loaded only here, when there is a marker to read.
  const { markerMacInput, parseMarkerValue } = await import('../../core/revive/marker-schema.ts');
  if (typeof value !== 'object' || value === null) return problem(name, path, 'is not a JSON object');
  const macWrong = macProblem(markerDir, markerMacInput(value), (value as { mac?: unknown }).mac);
  if (macWrong !== null) return refuse(macWrong);
  const parsed = parseMarkerValue(value);
  if (!parsed.ok) return problem(name, path, parsed.problem);
  if (parsed.marker.name !== name) return problem(name, path, `names "${parsed.marker.name}", not "${name}"`);
  return { status: 'ok', name, marker: parsed.marker };
}

/** The file's text, opened without following symlinks and only when deadman's uid owns it; null when too large. */
function readOwnFile(path: string): string | null {
  const { fd, size } = openOwnFile(path);
  try {
    if (size > MAX_MARKER_BYTES) return null;
    const buffer = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, buffer, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function problem(name: string, path: string, why: string): MarkerRead {
  return {
    status: 'problem',
    name,
    problem: `revive marker ${path} ${why}; not reviving "${name}" (its next run replaces the file)`,
  };
}

function refuseMarker(name: string, path: string, why: string, setAsideAt: number | null): MarkerRead {
  const aside = setAsideAt === null ? null : moveAside(path, setAsideAt);
  return {
    status: 'refused',
    name,
    problem: `revive marker ${path} refused: it ${why}; ${aside ? `moved to ${aside}` : 'left in place'}, not reviving "${name}"`,
  };
}

/**
 * Removes the temp files of marker writes cut short (a SIGKILL between write and rename):
 * those whose writer is gone. A live writer's temp file is its write in progress.
 */
export function removeStaleTempFiles(markerDir: string): string[] {
  const files = namesIn(markerDir);
  const removed: string[] = [];
  for (const file of files) {
    const writer = TEMP_FILE.exec(file)?.[2];
    if (writer === undefined || isPidAlive(Number(writer))) continue;
    try {
      unlinkSync(join(markerDir, file));
      removed.push(file);
    } catch {
      // gone already, or not ours to remove
    }
  }
  return removed;
}

/** Every marker in the directory, damaged ones included (as problems), sorted by name. */
export async function listMarkers(markerDir: string, options: ReadOptions = {}): Promise<MarkerRead[]> {
  const files = namesIn(markerDir);
  const names = files
    .filter((f) => f.endsWith('.json') && !f.startsWith('.'))
    .map((f) => f.slice(0, -'.json'.length))
    .filter((n) => NAME_PATTERN.test(n));
  return Promise.all(names.sort().map((name) => readMarker(markerDir, name, options)));
}

/** This process as a marker owner. */
export function currentOwner(): MarkerOwner {
  return { pid: process.pid, startTime: ownStartTime() };
}
