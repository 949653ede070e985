import { processKey, type Observation, type ProcessInfo } from '../process/process-info.ts';

/**
 * "The tree is working": over the last `windowMs`, the owned tree used (or waited in the run
 * queue for) more than `cpuFloorMs` of CPU time, or moved more than `ioFloorBytes` through
 * read()/write() (rchar + wchar) that did not pass through deadman's own pipes. Processes
 * starting and ending count only through the CPU and I/O they cause. Floors, not "any
 * change": an agent's inotify watch on /etc reads a few bytes on every exec anywhere on the
 * host, and a `sleep 1` polling loop or a loop of `systemd-notify` costs a few ms of CPU and
 * ~30 KB of library reads per second — none of that is work (measurements in docs/design.md,
 * "When is the tree working?"). Pure: the caller passes observations and the pipe byte count.
 */

export interface ActivityFloors {
  windowMs: number;
  /** CPU time (ms) the tree must use within a window. */
  cpuFloorMs: number;
  /** Bytes read + written (outside deadman's pipes) the tree must move within a window. */
  ioFloorBytes: number;
}

/** The floors of a config's `[activity]` table (milliseconds and bytes, as resolved). */
export function activityFloors(activity: { window: number; cpu: number; io_bytes: number }): ActivityFloors {
  return { windowMs: activity.window, cpuFloorMs: activity.cpu, ioFloorBytes: activity.io_bytes };
}

/** Clock ticks are USER_HZ, 100 per second on every Linux architecture Node runs on. */
const MS_PER_TICK = 10;

/** Cumulative totals at one poll: what the tree (or a subtree) did since it was first seen. */
export interface Sample {
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
export function updateActivity(
  state: ActivityState,
  observation: Observation,
  pipeBytes: number,
  floors: ActivityFloors,
): ActivityState {
  const last = state.samples.at(-1) ?? { at: observation.at, cpuMs: 0, ioBytes: 0 };
  const delta = state.previous ? growth(state.previous, observation) : { cpuMs: 0, ioBytes: 0 };
  const ioBytes = Math.max(0, delta.ioBytes - (pipeBytes - state.previousPipeBytes));
  const samples = withSample(
    state.samples,
    { at: observation.at, cpuMs: last.cpuMs + delta.cpuMs, ioBytes: last.ioBytes + ioBytes },
    floors.windowMs,
  );
  return { previous: observation, previousPipeBytes: pipeBytes, samples, working: exceedsFloors(samples, floors) };
}

/** Appends one poll's totals; keeps the latest sample at or before the window's start, and everything after it. */
export function withSample(samples: readonly Sample[], sample: Sample, windowMs: number): Sample[] {
  const kept = [...samples, sample];
  while (kept.length > 2 && kept[1]!.at <= sample.at - windowMs) kept.shift();
  return kept;
}

/**
 * Working at the latest poll: over the window the growth is above the floor, and the latest
 * step itself is above its share of the floor (floor × step / window). The second test keeps
 * a burst (a program's start-up reading its libraries) from counting as work for a whole
 * window after it ended; bursty work still counts at each burst. Before a whole window has
 * passed, the floors are scaled to the time covered, so work that starts with the run counts
 * from its first polls.
 */
export function exceedsFloors(samples: readonly Sample[], floors: ActivityFloors): boolean {
  const first = samples[0]!;
  const last = samples.at(-1)!;
  const before = samples.at(-2) ?? last;
  const spanMs = Math.min(floors.windowMs, last.at - first.at);
  const stepMs = last.at - before.at;
  if (spanMs <= 0 || stepMs <= 0) return false;
  const overWindow = { cpuMs: last.cpuMs - first.cpuMs, ioBytes: last.ioBytes - first.ioBytes };
  const overStep = { cpuMs: last.cpuMs - before.cpuMs, ioBytes: last.ioBytes - before.ioBytes };
  return (['cpuMs', 'ioBytes'] as const).some(
    (key) => aboveFloor(key, overWindow, spanMs, floors) && aboveFloor(key, overStep, stepMs, floors),
  );
}

/**
 * CPU time and I/O bytes used over some span. `cpuMs` is CPU time plus run-queue wait where the
 * observer knows it (Linux): a process runnable but waiting for a CPU is working, only slower
 * on a busy host (starved by busy loops, it may get 1 % of a core, far under the floor). A
 * sleeping process does not wait in the run queue, and the latency of each wake-up is not
 * counted (ownWaitMs). macOS `ps` shows no wait: CPU only there.
 */
export interface Growth {
  cpuMs: number;
  ioBytes: number;
}

const FLOOR_OF = { cpuMs: 'cpuFloorMs', ioBytes: 'ioFloorBytes' } as const;

/** Whether `moved` (over `spanMs`) is above the floor of `key`, scaled from the window to that span. */
function aboveFloor(key: keyof Growth, moved: Growth, spanMs: number, floors: ActivityFloors): boolean {
  return moved[key] > floors[FLOOR_OF[key]] * (spanMs / floors.windowMs);
}

/**
 * CPU and I/O the tree used between two polls. With the unit's cgroup the CPU comes from its
 * cpu.stat (processes that already exited included); otherwise from each owned process's own
 * and reaped children's times.
 */
export function growth(previous: Observation, next: Observation): Growth {
  let cpuMs = 0;
  let ioBytes = 0;
  for (const own of growthByProcess(previous.processes, next.processes).values()) {
    cpuMs += own.cpuMs;
    ioBytes += own.ioBytes;
  }
  const fromCgroup =
    previous.cgroupCpuMs != null && next.cgroupCpuMs != null
      ? Math.max(0, next.cgroupCpuMs - previous.cgroupCpuMs)
      : null;
  return {
    cpuMs: fromCgroup === null ? cpuMs : fromCgroup + waitGrowthMs(previous.processes, next.processes),
    ioBytes,
  };
}

/** Run-queue wait of the processes of `next` since `previous` (cpu.stat has none: the cgroup path adds it). */
function waitGrowthMs(previous: readonly ProcessInfo[], next: readonly ProcessInfo[]): number {
  const before = new Map(previous.map((p) => [processKey(p), p]));
  return next.reduce((sum, p) => sum + ownWaitMs(before.get(processKey(p)), p), 0);
}

/**
 * What each process of `next` used since `previous`, by processKey. A process seen for the
 * first time contributes all it has used. A child seen before and gone now was reaped by its
 * parent, whose counters (cutime/cstime, rchar/wchar) have just taken in the child's totals:
 * what the child had already shown is taken off the parent's growth, or it would count twice.
 * Counted twice, a `systemd-notify` loop whose execs a loaded host lets the polls see alive
 * moved ~60 KB/s, above the 51 KB/s floor, and stalled late or never.
 */
export function growthByProcess(previous: readonly ProcessInfo[], next: readonly ProcessInfo[]): Map<string, Growth> {
  const before = new Map(previous.map((p) => [processKey(p), p]));
  const result = new Map(next.map((p) => [processKey(p), ownGrowth(before.get(processKey(p)), p)]));
  const nextByPid = new Map(next.map((p) => [p.pid, p]));
  for (const gone of previous) {
    const parent = result.has(processKey(gone)) ? undefined : nextByPid.get(gone.ppid);
    const parentGrowth = parent && result.get(processKey(parent));
    if (!parentGrowth) continue;
    parentGrowth.cpuMs = Math.max(0, parentGrowth.cpuMs - totalTicks(gone) * MS_PER_TICK);
    parentGrowth.ioBytes = Math.max(0, parentGrowth.ioBytes - (gone.ioBytes ?? 0));
  }
  return result;
}

function ownGrowth(earlier: ProcessInfo | undefined, p: ProcessInfo): Growth {
  return {
    cpuMs: Math.max(0, totalTicks(p) - (earlier ? totalTicks(earlier) : 0)) * MS_PER_TICK + ownWaitMs(earlier, p),
    ioBytes: Math.max(0, (p.ioBytes ?? 0) - (earlier?.ioBytes ?? 0)),
  };
}

/**
 * A wake-up's ordinary scheduling latency, per time run, that is not work. An idle agent's
 * inotify watch woken by an exec storm at load 16 on 2 cores waited 1.5 ms a run, 175 ms a
 * second in all (above the floor); a CPU-bound tool starved beside busy loops, 123 ms a run.
 */
const WAKE_LATENCY_MS = 10;

/**
 * The wait a process shows beyond what it showed before, less WAKE_LATENCY_MS for each time it
 * was run since: what it waited because it wanted the CPU while others had it. Not read yet,
 * it counts from zero (as CPU does for a process first seen). A reaped child's wait does not
 * reach its parent.
 */
function ownWaitMs(earlier: ProcessInfo | undefined, p: ProcessInfo): number {
  if (p.waitMs === undefined || p.runs === undefined) return 0;
  const waited = p.waitMs - (earlier?.waitMs ?? 0);
  return Math.max(0, waited - WAKE_LATENCY_MS * (p.runs - (earlier?.runs ?? 0)));
}

function totalTicks(p: ProcessInfo): number {
  return p.cpuTicks + (p.reapedCpuTicks ?? 0);
}
