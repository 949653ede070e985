import { processKey, type Observation } from '../../core/process/process-info.ts';
import { emptyProgress, updateProgress, type TreeProgress } from '../../core/detect/process-progress.ts';
import {
  emptyActivity,
  updateActivity,
  type ActivityFloors,
  type ActivityState,
} from '../../core/detect/tree-activity.ts';

/**
 * The one observation history of a run, owned by the supervisor and read by every detector:
 * the latest poll of the owned tree, each process's progress, whether the tree works above the
 * activity floors (and when it last did), and the processes made persistent by readiness
 * (a line matching ready_pattern, ready_port accepting).
 */
export class ObservationHistory {
  latest: Observation | null = null;
  progress: TreeProgress = emptyProgress;
  activity: ActivityState = emptyActivity;
  lastTreeActivityAt: number;
  /**
   * Servers, never hung: processes seen listening on any poll (one poll's socket-table read may
   * miss a socket; a server keeps its role), and those alive at the first poll after an output
   * line matched ready_pattern or ready_port accepted.
   */
  private readonly persistentKeys = new Set<string>();
  private readySeenAt: number | null = null;

  constructor(startedAt: number) {
    this.lastTreeActivityAt = startedAt;
  }

  get persistent(): ReadonlySet<string> {
    return this.persistentKeys;
  }

  get processCount(): number {
    return this.latest?.processes.length ?? 1;
  }

  /**
   * Folds one poll in; returns whether the set of processes changed since the last one (the
   * store keeps an observation only then). `pipeBytes`: what deadman read from the child's
   * pipes so far (not the tree's I/O); `readyAt`: when the command last showed it is ready.
   */
  add(
    observation: Observation,
    now: number,
    input: { pipeBytes: number; floors: ActivityFloors; readyAt: number | null },
  ): boolean {
    const previous = this.latest;
    this.activity = updateActivity(this.activity, observation, input.pipeBytes, input.floors);
    if (this.activity.working) this.lastTreeActivityAt = now;
    this.progress = updateProgress(this.progress, observation, input.floors);
    for (const process of observation.processes) if (process.listening) this.persistentKeys.add(processKey(process));
    if (input.readyAt !== null && input.readyAt !== this.readySeenAt) {
      this.readySeenAt = input.readyAt;
      for (const key of this.progress.processes.keys()) this.persistentKeys.add(key);
    }
    this.latest = observation;
    return !previous || keysOf(previous).join() !== keysOf(observation).join();
  }
}

function keysOf(observation: Observation): string[] {
  return observation.processes.map(processKey).sort();
}
