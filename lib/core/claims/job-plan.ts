import type { Claim, Job } from '../config/config.ts';
import type { Verdict } from '../evidence/evidence.ts';
import { readClaim, type ClaimPlan } from './read-claim.ts';
import type { ClaimRefusal } from './claim-cursor.ts';

/**
 * What a job is checked by: its `[[jobs.NAME.evidence]]` claims and the plan its English
 * `claim` became — read by deadman, or (where the reader stopped) a plan a person approved. A
 * claim with neither is `pending`: the job's verdict is unknown and names the approve command,
 * and no other job is affected.
 */

export type EnglishPlan =
  | { source: 'reader'; sentence: string; plan: ClaimPlan }
  | { source: 'approved'; sentence: string; plan: ClaimPlan; refusal: ClaimRefusal }
  | { source: 'pending'; sentence: string; refusal: ClaimRefusal };

export interface JobPlan {
  /** Every claim to evaluate: the written ones, then the English claim's plan. */
  claims: Claim[];
  english: EnglishPlan | null;
}

/** `approved`: the pinned plan for a sentence the reader refused, if a person approved one. */
export function planJob(job: Job, approved: (sentence: string) => ClaimPlan | null): JobPlan {
  if (job.claim === undefined) return { claims: job.evidence, english: null };
  const reading = readClaim(job.claim);
  if (reading.ok)
    return {
      claims: [...job.evidence, ...reading.plan],
      english: { source: 'reader', sentence: job.claim, plan: reading.plan },
    };
  const pinned = approved(job.claim);
  if (pinned !== null)
    return {
      claims: [...job.evidence, ...pinned],
      english: { source: 'approved', sentence: job.claim, plan: pinned, refusal: reading.refusal },
    };
  return { claims: job.evidence, english: { source: 'pending', sentence: job.claim, refusal: reading.refusal } };
}

/** The approve command for a job. */
export function approveCommand(job: string): string {
  return `deadman check --approve-plan ${job}`;
}

/** The unknown verdict of a claim that has no plan yet. */
export function pendingVerdict(job: string, refusal: ClaimRefusal): Verdict {
  return {
    claim: 'claim',
    kind: 'file',
    verdict: 'unknown',
    reason: `claim not read: ${refusal.reason}; no approved plan yet (${approveCommand(job)})`,
  };
}
