import { bornAt, processKey, type Observation, type ProcessInfo } from '../process/process-info.ts';
import {
  exceedsFloors,
  growthByProcess,
  withSample,
  type ActivityFloors,
  type Growth,
  type Sample,
} from './tree-activity.ts';

/**
 * The history the hung detector needs, folded poll by poll: per process, when it was first
 * seen and when its subtree (itself and everything below it) last worked. "Worked" is the rule
 * of "the tree is working" (tree-activity.ts) applied to the subtree: above the CPU or I/O
 * floor over the window, and in the latest step. A subtree that only ticks — a `sleep 1`
 * polling loop, an inotify watch answering execs elsewhere on the host — is idle, and
 * processes starting and ending count only through the CPU and I/O they cause. The CPU of a
 * child reaped between two polls reaches its parent's cutime/cstime, so it is not lost. Pure:
 * times come from the observations.
 */

export interface ProcessProgress {
  info: ProcessInfo;
  firstSeenAt: number;
  /** When it was born (its start time on the poll's clock), or first seen where start times cannot be placed. */
  bornAt: number;
  /** Last poll at which its subtree worked above the floors (its first poll to begin with). */
  lastProgressAt: number;
  /** Its subtree's CPU and I/O since it was first seen, over the last window. */
  samples: Sample[];
}

/** How each owned process of the latest observation has been working: what the hung detector judges. */
export interface TreeProgress {
  /** By processKey; only processes of the latest observation. */
  processes: ReadonlyMap<string, ProcessProgress>;
}

export const emptyProgress: TreeProgress = { processes: new Map() };

export function updateProgress(state: TreeProgress, observation: Observation, floors: ActivityFloors): TreeProgress {
  const at = observation.at;
  const subtreeGrowth = growthBySubtree(state, observation);
  const next = new Map<string, ProcessProgress>();
  for (const info of observation.processes) {
    const key = processKey(info);
    const earlier = state.processes.get(key);
    if (!earlier) {
      next.set(key, {
        info,
        firstSeenAt: at,
        bornAt: bornAt(info, observation),
        lastProgressAt: at,
        samples: [{ at, cpuMs: 0, ioBytes: 0 }],
      });
      continue;
    }
    const last = earlier.samples.at(-1)!;
    const moved = subtreeGrowth.get(key)!;
    const samples = withSample(
      earlier.samples,
      { at, cpuMs: last.cpuMs + moved.cpuMs, ioBytes: last.ioBytes + moved.ioBytes },
      floors.windowMs,
    );
    next.set(key, {
      info,
      firstSeenAt: earlier.firstSeenAt,
      bornAt: earlier.bornAt,
      lastProgressAt: exceedsFloors(samples, floors) ? at : earlier.lastProgressAt,
      samples,
    });
  }
  return { processes: next };
}

/** Per process, the CPU and I/O its subtree (as linked in this observation) used since the last one. */
function growthBySubtree(state: TreeProgress, observation: Observation): Map<string, Growth> {
  const totals = new Map<string, Growth>(observation.processes.map((p) => [processKey(p), { cpuMs: 0, ioBytes: 0 }]));
  const byPid = new Map(observation.processes.map((p) => [p.pid, p]));
  const ownGrowth = growthByProcess(
    [...state.processes.values()].map((entry) => entry.info),
    observation.processes,
  );
  for (const p of observation.processes) {
    const own = ownGrowth.get(processKey(p))!;
    if (own.cpuMs === 0 && own.ioBytes === 0) continue;
    const seen = new Set<number>();
    for (let member: ProcessInfo | undefined = p; member && !seen.has(member.pid); member = byPid.get(member.ppid)) {
      seen.add(member.pid);
      const total = totals.get(processKey(member))!;
      total.cpuMs += own.cpuMs;
      total.ioBytes += own.ioBytes;
    }
  }
  return totals;
}
