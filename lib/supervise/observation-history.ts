import { processKey, type Observation } from '../core/process/events.ts';
import { emptyProgress, updateProgress, type ProgressState } from '../core/detect/process-progress.ts';
import { treeShowsActivity } from '../core/detect/tree-activity.ts';

/**
 * The one observation history of a run, owned by the supervisor and read by every detector:
 * the latest and previous poll of the owned tree, each process's progress, the baseline of
 * helpers present before the first tool call, and when the tree as a whole last moved.
 */
export class ObservationHistory {
  latest: Observation | null = null;
  progress: ProgressState = emptyProgress;
  baseline: ReadonlySet<string> = new Set();
  lastTreeActivityAt: number;

  constructor(startedAt: number) {
    this.lastTreeActivityAt = startedAt;
  }

  get processCount(): number {
    return this.latest?.processes.length ?? 1;
  }

  /**
   * Folds one poll in; returns whether the set of processes changed since the last one (the
   * store keeps an observation only then). `takeBaseline`: no tool call has started yet.
   */
  add(observation: Observation, now: number, takeBaseline: boolean): boolean {
    const previous = this.latest;
    if (previous && treeShowsActivity(previous, observation)) this.lastTreeActivityAt = now;
    this.progress = updateProgress(this.progress, observation);
    if (takeBaseline) this.baseline = new Set(observation.processes.filter((p) => p.pid !== observation.rootPid).map(processKey));
    this.latest = observation;
    return !previous || keysOf(previous).join() !== keysOf(observation).join();
  }
}

function keysOf(observation: Observation): string[] {
  return observation.processes.map(processKey).sort();
}
