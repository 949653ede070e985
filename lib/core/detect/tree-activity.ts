import { processKey, type Observation } from '../process/events.ts';

/**
 * Whether the owned tree visibly worked between two polls: a process started or ended, or
 * some process used CPU time or moved bytes through read()/write(). The output-inactivity
 * watchdog asks this before firing, so a silent compile or `npm install` is not a stall, while
 * a child blocked in read() on an empty pipe (no CPU, no bytes) is.
 */
export function treeShowsActivity(previous: Observation, next: Observation): boolean {
  if (previous.processes.length !== next.processes.length) return true;
  const before = new Map(previous.processes.map((p) => [processKey(p), p]));
  for (const p of next.processes) {
    const earlier = before.get(processKey(p));
    if (!earlier) return true;
    if (earlier.cpuTicks !== p.cpuTicks || earlier.ioBytes !== p.ioBytes) return true;
  }
  return false;
}
