import { markStoppedByPerson, type Marker } from './marker.ts';
import type { SessionFinding } from './session-files.ts';

/**
 * The agent's own session file is the truth where it is newer than the marker: a session
 * deadman revived and saw complete may have been resumed by a person since and cut off again
 * (revive it again), a budget spent earlier starts over after a genuine user prompt, and a turn
 * a person stopped is never revived whatever the marker says. A running marker is left alone:
 * its supervisor (alive or not) is newer than anything the file can say.
 */
export function reconcileWithSession(marker: Marker, finding: SessionFinding | undefined): Marker {
  if (finding === undefined || marker.state === 'running') return marker;
  if (finding.lastTimestamp === null || finding.lastTimestamp <= marker.updatedAt) return marker;
  const updatedAt = finding.lastTimestamp;
  if (finding.stoppedByPerson !== null) return markStoppedByPerson(marker, finding.stoppedByPerson, updatedAt);
  if (finding.interruption === null)
    return { ...marker, state: 'completed', reason: "the session's last turn completed", reviveCount: 0, updatedAt };
  return {
    ...marker,
    state: 'interrupted',
    reason: finding.interruption,
    reviveCount: finding.revivesSinceUserInput,
    updatedAt,
  };
}
