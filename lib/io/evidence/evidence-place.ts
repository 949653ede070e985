import type { Job } from '../../core/config/config.ts';
import { containerFiles } from './container-files.ts';
import { reachContainer } from './container-engine.ts';
import { hostFiles, hostTimeZone, type FileFacts } from './host-files.ts';
import { offsetZone } from '../../core/time/day-start.ts';

/**
 * Where a job's file claims are observed, and the clock they are judged by: this host and its
 * clock, or the job's container (`container = "NAME"`) and the container's clock — its time read
 * there by `date`, carried forward by the host's clock for the rest of the check, and its zone,
 * for the day a claim's "today" means where the files live.
 */
export interface EvidencePlace {
  files: FileFacts;
  /** Wall-clock milliseconds where the files live. */
  now: () => number;
  /** The zone where the files live, for a claim's "today": the host's, or the container's offset (`+05:30`). */
  timeZone: string;
}

/** The place of a job's evidence, or the one line that says why it cannot be read (its claims are then unknown). */
export async function evidencePlace(job: Job, now: () => number): Promise<EvidencePlace | { unreachable: string }> {
  if (job.container === undefined) return { files: hostFiles, now, timeZone: hostTimeZone() };
  const readAt = now();
  const reached = await reachContainer(job.container, job.engine);
  if ('unreachable' in reached) return reached;
  const { container, clock } = reached;
  return {
    files: containerFiles(container),
    now: () => clock.epochMs + (now() - readAt),
    timeZone: offsetZone(clock.utcOffsetMinutes),
  };
}
