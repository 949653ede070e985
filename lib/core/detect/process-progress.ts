import { processKey, type Observation, type ProcessInfo } from '../process/process-info.ts';

/**
 * The history the hung detector needs, folded poll by poll: per process, when its own CPU
 * time or I/O bytes last moved, and when a process last appeared in, left, or was reparented
 * out of the subtree below it. Pure: times come from the observations.
 */

export interface ProcessProgress {
  info: ProcessInfo;
  firstSeenAt: number;
  /** Last poll at which its CPU ticks or I/O bytes changed (its first poll to begin with). */
  lastProgressAt: number;
  /** Last poll at which a process appeared in or disappeared from its subtree, itself included. */
  lastMembershipChangeAt: number;
}

export interface ProgressState {
  /** By processKey; only processes of the latest observation. */
  processes: ReadonlyMap<string, ProcessProgress>;
}

export const emptyProgress: ProgressState = { processes: new Map() };

export function updateProgress(state: ProgressState, observation: Observation): ProgressState {
  const at = observation.at;
  const previous = state.processes;
  const next = new Map<string, ProcessProgress>();
  for (const info of observation.processes) {
    const key = processKey(info);
    const earlier = previous.get(key);
    const moved = !earlier || earlier.info.cpuTicks !== info.cpuTicks || earlier.info.ioBytes !== info.ioBytes;
    next.set(key, {
      info,
      firstSeenAt: earlier?.firstSeenAt ?? at,
      lastProgressAt: moved ? at : earlier.lastProgressAt,
      lastMembershipChangeAt: earlier?.lastMembershipChangeAt ?? at,
    });
  }
  const markChanged = (keys: Iterable<string>) => {
    for (const key of keys) {
      const entry = next.get(key);
      if (entry) entry.lastMembershipChangeAt = at;
    }
  };
  const nowByPid = byPid(observation.processes);
  const previousByPid = byPid([...previous.values()].map((p) => p.info));
  for (const [key, entry] of next) {
    const earlier = previous.get(key);
    if (!earlier) markChanged(ancestorKeys(entry.info, nowByPid));
    else if (earlier.info.ppid !== entry.info.ppid) {
      markChanged([key, ...ancestorKeys(earlier.info, previousByPid)]);
      markChanged(ancestorKeys(entry.info, nowByPid));
    }
  }
  for (const [key, earlier] of previous) {
    if (!next.has(key)) markChanged(ancestorKeys(earlier.info, previousByPid));
  }
  return { processes: next };
}

function byPid(processes: readonly ProcessInfo[]): Map<number, ProcessInfo> {
  return new Map(processes.map((p) => [p.pid, p]));
}

/** Keys of `p`'s parent, grandparent, … as linked in one observation. */
function ancestorKeys(p: ProcessInfo, byPid: ReadonlyMap<number, ProcessInfo>): string[] {
  const keys: string[] = [];
  const seen = new Set([p.pid]);
  for (let parent = byPid.get(p.ppid); parent && !seen.has(parent.pid); parent = byPid.get(parent.ppid)) {
    seen.add(parent.pid);
    keys.push(processKey(parent));
  }
  return keys;
}
