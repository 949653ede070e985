import { z } from 'zod';
import { argv, duration, name, TIMER_MAX } from './schema-fields.ts';
import { rerunProblem } from './rerun-guard.ts';

/**
 * The keys of a `[jobs.NAME]` beyond its evidence: the guarded `rerun` (rerun-guard.ts), and how
 * long its last run may take, read from its systemd unit or from deadman's own record of a run.
 */

/** Optional: a job without one is checked and never fixed. */
export const rerun = argv
  .superRefine((words, ctx) => {
    const problem = rerunProblem(words);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  })
  .optional();

export const runDurationFields = {
  min_duration: duration({ max: TIMER_MAX }).optional(),
  max_duration: duration({ max: TIMER_MAX }).optional(),
  unit: z
    .string()
    .regex(/^[A-Za-z0-9:_.\\@-]+\.service$/, { message: 'must be a service unit name such as "backup.service"' })
    .optional(),
  /** Absent: the system manager. */
  manager: z.enum(['system', 'user']).optional(),
  run: name.optional(),
};

interface RunDurationKeys {
  min_duration?: number | undefined;
  max_duration?: number | undefined;
  unit?: string | undefined;
  run?: string | undefined;
}

/** Problems between the duration keys, as [key, message]. */
export function runDurationProblems(job: RunDurationKeys): Array<[string, string]> {
  const bounded = job.min_duration !== undefined || job.max_duration !== undefined;
  const sources = [job.unit, job.run].filter((s) => s !== undefined).length;
  if (sources > 1) return [['run', 'give one of "unit" (a systemd unit) or "run" (a deadman run name), not both']];
  if (bounded && sources === 0)
    return [
      [
        job.min_duration !== undefined ? 'min_duration' : 'max_duration',
        'needs "unit" (a systemd unit) or "run" (a deadman run name): where the job\'s last run is read',
      ],
    ];
  if (!bounded && sources === 1)
    return [
      [job.unit !== undefined ? 'unit' : 'run', 'is read only for min_duration or max_duration; add one of them'],
    ];
  if (job.min_duration !== undefined && job.max_duration !== undefined && job.min_duration > job.max_duration) {
    return [['min_duration', 'is longer than max_duration: no run could pass']];
  }
  return [];
}
