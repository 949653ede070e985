import { z } from 'zod';
import { fileClaimSchema, httpClaimSchema } from '../config/config.ts';
import { answerObject } from '../incident/diagnosis-schema.ts';
import type { ClaimPlan } from './read-claim.ts';
import type { ClaimRefusal } from './claim-cursor.ts';

/**
 * Where the reader stops, a diagnostician may propose a plan — in the same typed schema a TOML
 * author writes — which a person approves before it is ever used. It proposes observations
 * only: file and http claims, never a command (that would let the model choose what runs). The
 * verdicts stay deadman's own: the plan is checked like any written claim.
 */

export const modelPlanSchema = z.strictObject({
  claims: z
    .array(
      z.discriminatedUnion('kind', [fileClaimSchema, httpClaimSchema], {
        error: 'each claim needs kind = "file" or "http" (a plan may not run commands)',
      }),
    )
    .min(1)
    .max(8),
});

export type ParsedPlan =
  { ok: true; plan: ClaimPlan; inputs: Array<Record<string, unknown>> } | { ok: false; problem: string };

export const PLAN_INSTRUCTIONS = [
  'deadman could not read a plain-English claim about what a scheduled job leaves behind. The user message (JSON) holds the job, the claim and why it was refused.',
  'Answer with ONE JSON object and nothing else: {"claims": [...]}, each claim a deadman evidence claim:',
  'kind "file" with "root" (absolute directory every path stays inside), exactly one of "path" or "glob" (absolute, under root),',
  'and any of "non_empty" (bool), "min_bytes", "max_age" (span such as "6h"), "modified_today" (bool), "min_lines", "contains" (regex), "header" (first-line prefix), "min_count", "max_count";',
  'or kind "http" with "url" and optional "status" ("200-299"), "body_matches". No other kinds. Say only what the claim says.',
].join(' ');

/** The question put to the diagnostician: what it needs and nothing more (no paths beyond the claim's own words). */
export function planQuestion(job: string, sentence: string, refusal: ClaimRefusal): object {
  return {
    task: 'claim_plan',
    job,
    claim: sentence,
    refused_because: refusal.reason,
    answer_shape: '{"claims": [ …deadman evidence claims… ]}',
  };
}

export function parsePlanAnswer(text: string): ParsedPlan {
  const answer = answerObject(text);
  if (!answer.ok) return answer;
  return parsePlanValue(answer.value);
}

/** A plan as stored (its claims as written) validated again: a pinned file is input too. */
export function parsePlanValue(value: unknown): ParsedPlan {
  const parsed = modelPlanSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, problem: `answered with a bad "${issue.path.join('.') || '(root)'}": ${issue.message}` };
  }
  const inputs = (value as { claims: Array<Record<string, unknown>> }).claims;
  return { ok: true, plan: namedPlan(parsed.data.claims), inputs };
}

/** `claim`, or `claim-1`, `claim-2` …, unless the plan names its claims. */
export function namedPlan(plan: ClaimPlan): ClaimPlan {
  return plan.map((claim, i) => ({ ...claim, name: claim.name ?? (plan.length === 1 ? 'claim' : `claim-${i + 1}`) }));
}
