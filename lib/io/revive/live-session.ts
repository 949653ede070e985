import { readdirSync, readFileSync } from 'node:fs';
import { RUN_TAG_ENV } from '../../core/process/run-tag.ts';
import type { Marker } from '../../core/revive/marker.ts';
import { isOwnerAlive } from '../process/process-identity.ts';
import { isSameProcessAlive } from '../process/process-identity.ts';

/**
 * Whether a marker's session still has a live process: its owner (pid + start time), or any
 * process carrying the run's tag in its environment — the agent that outlived a supervisor
 * killed with SIGKILL keeps the tag. Reviving then would start a second agent on the session.
 * Environments of other users' processes are unreadable unless deadman is root; those are not
 * the run's anyway (the agent runs as deadman's uid).
 */
export function liveSessionPid(marker: Marker, selfPid = process.pid): number | null {
  // The owner of a marker it marked interrupted was on its way out: only a running marker's owner counts.
  if (marker.state === 'running' && marker.owner !== null && marker.owner.pid !== selfPid && isOwnerAlive(marker.owner))
    return marker.owner.pid;
  return marker.runTag === null ? null : taggedProcess(marker.runTag, selfPid);
}

function taggedProcess(tag: string, selfPid: number): number | null {
  const needle = Buffer.from(`\0${RUN_TAG_ENV}=${tag}\0`);
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return null;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === selfPid) continue;
    try {
      const environ = Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${entry}/environ`), Buffer.from([0])]);
      if (environ.includes(needle) && isSameProcessAlive(Number(entry))) return Number(entry);
    } catch {
      // gone, or another user's
    }
  }
  return null;
}
