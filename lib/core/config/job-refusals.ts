import type { SchemaIssue } from './config-problems.ts';

/**
 * One bad `[jobs.NAME]` must not blind `deadman check` to the others (like systemd with one bad
 * unit among many): when every problem of a config lies inside some jobs, those jobs are set
 * apart, refused with their problems, and the rest is validated without them.
 */

/** A job `deadman check` refuses to judge, with the config problems (one line each) that say why. */
export interface RefusedJob {
  job: string;
  problems: string[];
}

/** The issues grouped by the job they lie in; null when any issue lies outside every job. */
export function issuesByJob(issues: readonly SchemaIssue[]): Map<string, SchemaIssue[]> | null {
  const byJob = new Map<string, SchemaIssue[]>();
  for (const issue of issues) {
    const [section, job] = issue.path;
    if (section !== 'jobs' || typeof job !== 'string') return null;
    byJob.set(job, [...(byJob.get(job) ?? []), issue]);
  }
  return byJob;
}

/** The raw config without the named jobs. */
export function withoutJobs(raw: Record<string, unknown>, jobs: ReadonlySet<string>): Record<string, unknown> {
  const configured = raw.jobs as Record<string, unknown>;
  return { ...raw, jobs: Object.fromEntries(Object.entries(configured).filter(([name]) => !jobs.has(name))) };
}
