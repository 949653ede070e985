import type { Config, Job } from '../../core/config/config.ts';
import { approveCommand, pendingVerdict, planJob, type JobPlan } from '../../core/claims/job-plan.ts';
import { planQuestion } from '../../core/claims/model-plan.ts';
import { planLines } from '../../core/claims/plan-text.ts';
import type { Verdict } from '../../core/evidence/evidence.ts';
import { askForPlan } from '../../io/evidence/ask-plan.ts';
import { readPlan, writePlan } from '../../io/evidence/claim-plans.ts';
import { redactorFor } from './open-store.ts';

/**
 * `deadman check`'s English claims: each job's plan (read, approved, or pending), the jobs as
 * they are evaluated (their claims replaced by the plan's), and for a pending claim the one
 * question to the diagnostician, whose proposal is stored and shown but never used until a
 * person approves it (`--approve-plan`).
 */

export interface PlannedJobs {
  jobs: Array<[string, Job]>;
  plans: Map<string, JobPlan>;
  /** The unknown verdict of each job whose claim has no plan yet. */
  pending: Map<string, Verdict>;
  /** Lines shown under a pending job: the proposed plan, or why there is none. */
  notes: Map<string, string[]>;
}

export function planAll(selected: ReadonlyArray<[string, Job]>, stateDir: string): Map<string, JobPlan> {
  return new Map(
    selected.map(([name, job]) => [
      name,
      planJob(job, (sentence) => {
        const pinned = readPlan(stateDir, sentence, 'approved');
        return pinned !== null && 'plan' in pinned ? pinned.plan.plan : null;
      }),
    ]),
  );
}

export async function planJobs(
  selected: ReadonlyArray<[string, Job]>,
  config: Config,
  stateDir: string,
): Promise<PlannedJobs> {
  const plans = planAll(selected, stateDir);
  const pending = new Map<string, Verdict>();
  const notes = new Map<string, string[]>();
  for (const [name] of selected) {
    const english = plans.get(name)!.english;
    if (english?.source !== 'pending') continue;
    pending.set(name, pendingVerdict(name, english.refusal));
    notes.set(name, await proposalNote(name, english.sentence, english.refusal, config, stateDir));
  }
  const jobs = selected.map(([name, job]): [string, Job] => [name, { ...job, evidence: plans.get(name)!.claims }]);
  return { jobs, plans, pending, notes };
}

/** The stored proposal, or a fresh one asked once now; as lines to show. */
async function proposalNote(
  job: string,
  sentence: string,
  refusal: Parameters<typeof planQuestion>[2],
  config: Config,
  stateDir: string,
): Promise<string[]> {
  const stored = readPlan(stateDir, sentence, 'proposed');
  if (stored !== null && 'plan' in stored) return proposedLines(job, stored.plan.plan);
  const answer = await askForPlan(config.diagnose, redactorFor(config), planQuestion(job, sentence, refusal));
  if (answer === null)
    return ['no diagnostician is configured to propose a plan; reword the claim or write [[jobs.NAME.evidence]]'];
  if (!answer.ok) return [`the diagnostician proposed no usable plan: it ${answer.problem}`];
  writePlan(stateDir, 'proposed', {
    claim: sentence,
    claims: answer.inputs,
    proposed_by: config.diagnose.diagnostician ?? 'command',
  });
  return proposedLines(job, answer.plan);
}

export function proposedLines(job: string, plan: JobPlan['claims']): string[] {
  return [
    `proposed plan (from the diagnostician; not used until approved: ${approveCommand(job)}):`,
    ...plan.flatMap((claim) => ['  [[claim]]', ...planLines(claim).map((l) => `  ${l}`)]),
  ];
}
