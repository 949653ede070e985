import { processKey, type Observation, type ProcessInfo } from '../process/process-info.ts';

/**
 * "The tree is working": over the last `windowMs`, the owned tree used more than `cpuFloorMs`
 * of CPU time, or moved more than `ioFloorBytes` through read()/write() (rchar + wchar) that
 * did not pass through deadman's own pipes. Processes starting and ending count only through
 * the CPU and I/O they cause. Floors, not "any change": an agent's inotify watch on /etc reads
 * a few bytes on every exec anywhere on the host, and a `sleep 1` polling loop or a loop of
 * `systemd-notify` costs a few ms of CPU and ~30 KB of library reads per second — none of that
 * is work (measurements in docs/design.md, "When is the tree working?"). Pure: the caller
 * passes observations and the pipe byte count.
 */

export interface ActivityFloors {
  windowMs: number;
  /** CPU time (ms) the tree must use within a window. */
  cpuFloorMs: number;
  /** Bytes read + written (outside deadman's pipes) the tree must move within a window. */
  ioFloorBytes: number;
}

/** Clock ticks are USER_HZ, 100 per second on every Linux architecture Node runs on. */
const MS_PER_TICK = 10;

/** Cumulative totals at one poll: what the tree did since the run started. */
interface Sample {
  at: number;
  cpuMs: number;
  ioBytes: number;
}

export interface ActivityState {
  previous: Observation | null;
  previousPipeBytes: number;
  /** Oldest first; the first one is at or before the window's start once a window has passed. */
  samples: Sample[];
  /** Whether the tree worked over the window that ends at the latest observation. */
  working: boolean;
}

export const emptyActivity: ActivityState = { previous: null, previousPipeBytes: 0, samples: [], working: false };

/**
 * Folds one observation in. `pipeBytes` is the running total of bytes deadman read from the
 * child's stdout and stderr: the writer's wchar counts them, deadman's passthrough already
 * judges output, and a chatty agent must not count twice (nor non-JSON junk at all).
 */
export function updateActivity(state: ActivityState, observation: Observation, pipeBytes: number, floors: ActivityFloors): ActivityState {
  const last = state.samples.at(-1) ?? { at: observation.at, cpuMs: 0, ioBytes: 0 };
  const delta = state.previous ? growth(state.previous, observation) : { cpuMs: 0, ioBytes: 0 };
  const ioBytes = Math.max(0, delta.ioBytes - (pipeBytes - state.previousPipeBytes));
  const sample = { at: observation.at, cpuMs: last.cpuMs + delta.cpuMs, ioBytes: last.ioBytes + ioBytes };
  const samples = [...state.samples, sample];
  // Keep the latest sample at or before the window's start, and everything after it.
  while (samples.length > 2 && samples[1]!.at <= observation.at - floors.windowMs) samples.shift();
  return { previous: observation, previousPipeBytes: pipeBytes, samples, working: exceedsFloors(samples, floors) };
}

/**
 * Working at the latest poll: over the window the growth is above the floor, and the latest
 * step itself is above its share of the floor (floor × step / window). The second test keeps
 * a burst (a program's start-up reading its libraries) from counting as work for a whole
 * window after it ended; bursty work still counts at each burst. Before a whole window has
 * passed, the floors are scaled to the time covered, so work that starts with the run counts
 * from its first polls.
 */
function exceedsFloors(samples: Sample[], floors: ActivityFloors): boolean {
  const first = samples[0]!;
  const last = samples.at(-1)!;
  const before = samples.at(-2) ?? last;
  const spanMs = Math.min(floors.windowMs, last.at - first.at);
  const stepMs = last.at - before.at;
  if (spanMs <= 0 || stepMs <= 0) return false;
  const above = (key: 'cpuMs' | 'ioBytes', floor: number) =>
    last[key] - first[key] > floor * (spanMs / floors.windowMs) && last[key] - before[key] > floor * (stepMs / floors.windowMs);
  return above('cpuMs', floors.cpuFloorMs) || above('ioBytes', floors.ioFloorBytes);
}

/**
 * CPU and I/O the tree used between two polls. With the unit's cgroup the CPU comes from its
 * cpu.stat (processes that already exited included); otherwise from each owned process's own
 * and reaped children's times. A process seen for the first time contributes all it has used.
 */
export function growth(previous: Observation, next: Observation): { cpuMs: number; ioBytes: number } {
  const before = new Map(previous.processes.map((p) => [processKey(p), p]));
  let cpuTicks = 0;
  let ioBytes = 0;
  for (const p of next.processes) {
    const earlier = before.get(processKey(p));
    cpuTicks += Math.max(0, totalTicks(p) - (earlier ? totalTicks(earlier) : 0));
    ioBytes += Math.max(0, (p.ioBytes ?? 0) - (earlier?.ioBytes ?? 0));
  }
  const fromCgroup = previous.cgroupCpuMs != null && next.cgroupCpuMs != null ? Math.max(0, next.cgroupCpuMs - previous.cgroupCpuMs) : null;
  return { cpuMs: fromCgroup ?? cpuTicks * MS_PER_TICK, ioBytes };
}

function totalTicks(p: ProcessInfo): number {
  return p.cpuTicks + (p.reapedCpuTicks ?? 0);
}
