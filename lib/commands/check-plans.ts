import type { Config, Job } from '../core/config/config.ts';
import { approveCommand, type JobPlan } from '../core/claims/job-plan.ts';
import { planQuestion } from '../core/claims/model-plan.ts';
import { planLines } from '../core/claims/plan-text.ts';
import { readClaim } from '../core/claims/read-claim.ts';
import type { Clock } from '../core/time/clock.ts';
import { ExitCode, configError, usageError } from '../exit-codes.ts';
import { currentOperator, openTerminalPrompt } from '../io/approvals/approval.ts';
import { askForPlan } from '../io/evidence/ask-plan.ts';
import { readPlan, writePlan } from '../io/evidence/claim-plans.ts';
import { planAll, proposedLines } from './shared/check-claims.ts';
import { redactorFor } from './shared/open-store.ts';

/**
 * `deadman check --explain [JOB…]` prints the typed plan each job is checked by (the claims it
 * was written with, the plan its English claim became, or why it has none); `deadman check
 * --approve-plan JOB` shows the diagnostician's plan for a claim the reader refused and, on a
 * person's yes, pins it under the claim's hash.
 */

export function explainJobs(
  selected: ReadonlyArray<[string, Job]>,
  stateDir: string,
  out: (line: string) => void,
): number {
  const { lines, pending } = explainText(selected, stateDir);
  lines.forEach(out);
  return pending ? ExitCode.ATTENTION : ExitCode.OK;
}

/** The plan of each job as lines (`--explain`, `config check`), and whether any claim has none yet. */
export function explainText(
  selected: ReadonlyArray<[string, Job]>,
  stateDir: string,
): { lines: string[]; pending: boolean } {
  const plans = planAll(selected, stateDir);
  const lines = selected.flatMap(([name, job]) => [
    name,
    ...explainLines(name, job, plans.get(name)!).map((line) => `  ${line}`),
  ]);
  return { lines, pending: [...plans.values()].some((plan) => plan.english?.source === 'pending') };
}

function explainLines(name: string, job: Job, plan: JobPlan): string[] {
  const block = (claims: JobPlan['claims']) =>
    claims.flatMap((claim) => [`  [[jobs.${name}.evidence]]`, ...planLines(claim).map((l) => `  ${l}`)]);
  const lines = job.evidence.length > 0 ? ['written claims:', ...block(job.evidence)] : [];
  const english = plan.english;
  if (english === null) return lines;
  lines.push(`claim: ${english.sentence}`);
  if (english.source === 'reader') return [...lines, 'read by deadman as:', ...block(english.plan)];
  lines.push(`not read: ${english.refusal.reason}`);
  if (english.source === 'approved') return [...lines, 'approved plan (pinned):', ...block(english.plan)];
  return [...lines, `no approved plan yet (${approveCommand(name)}); until then the job is unknown`];
}

export interface ApproveSession {
  config: Config;
  stateDir: string;
  clock: Clock;
  assumeYes: boolean;
  out: (line: string) => void;
}

export async function approvePlan(session: ApproveSession, name: string, job: Job): Promise<number> {
  const { out, stateDir, config } = session;
  if (job.claim === undefined) throw usageError(`job "${name}" has no claim = "…" to approve a plan for`);
  const reading = readClaim(job.claim);
  if (reading.ok) {
    out(`deadman reads this claim itself; there is nothing to approve (deadman check --explain ${name})`);
    return ExitCode.OK;
  }
  const stored = readPlan(stateDir, job.claim, 'proposed');
  const proposal =
    stored !== null && 'plan' in stored
      ? stored.plan
      : await askForPlan(config.diagnose, redactorFor(config), planQuestion(name, job.claim, reading.refusal));
  if (proposal === null)
    throw configError(
      `no diagnostician is configured to propose a plan for "${name}"; set [diagnose] diagnostician, reword the claim, or write [[jobs.${name}.evidence]]`,
    );
  if (!proposal.ok) {
    out(`not approved: the diagnostician proposed no usable plan: it ${proposal.problem}`);
    return ExitCode.ATTENTION;
  }
  const record = { claim: job.claim, claims: proposal.inputs, proposed_by: config.diagnose.diagnostician ?? 'command' };
  if (stored === null) writePlan(stateDir, 'proposed', record);
  out(`claim: ${job.claim}`);
  out(`not read: ${reading.refusal.reason}`);
  for (const line of proposedLines(name, proposal.plan)) out(line);
  const answer = await confirm(session.assumeYes);
  if (answer !== 'yes') {
    out(
      answer === 'no'
        ? 'refused; no plan was pinned'
        : 'not approved: no terminal to ask; pass --yes to approve without asking',
    );
    return ExitCode.ATTENTION;
  }
  const path = writePlan(stateDir, 'approved', {
    ...record,
    approved_by: currentOperator(),
    approved_at: new Date(session.clock.wall()).toISOString(),
  });
  out(`approved and pinned: ${path}`);
  return ExitCode.OK;
}

async function confirm(assumeYes: boolean): Promise<'yes' | 'no' | 'nobody'> {
  if (assumeYes) return 'yes';
  const prompt = openTerminalPrompt();
  if (prompt === null) return 'nobody';
  try {
    return (await prompt.confirm('Approve this plan? [y/N] ')) ? 'yes' : 'no';
  } finally {
    prompt.close();
  }
}
