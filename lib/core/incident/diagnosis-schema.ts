import { z } from 'zod';
import { parseJsonOrUndefined } from '../json/parse-json.ts';
import { DIAGNOSIS_ACTIONS } from '../signals/actions.ts';

/**
 * The diagnosis contract (seed Deadman's): what every external diagnostician — a command, an
 * OpenAI-compatible endpoint, the Anthropic Messages API — must answer, as one strict JSON
 * object. The actions are the typed vocabulary a model may name; deadman decides what, if any,
 * it carries out (diagnosis.ts, then policy). Loaded only when a diagnostician answers (zod is
 * not on `deadman run`'s start-up path).
 */

export const diagnosisSchema = z.strictObject({
  /** The signal kind the diagnostician sees; must equal the open signal's. */
  classification: z.string().min(1).max(64),
  confidence: z.number().min(0).max(1),
  recommended_action: z.enum(DIAGNOSIS_ACTIONS),
  rationale: z.string().min(1).max(2000),
  /** Ids of the packet's evidence items the rationale rests on (`proc_001`, `evt_014`): at least one. */
  evidence_ids: z
    .array(z.string().regex(/^[a-z]+_\d{3}$/))
    .min(1)
    .max(50),
  /** Text for the agent when the action resumes it; null when there is none. */
  guidance: z.string().max(4000).nullable(),
  requires_human_approval: z.boolean(),
});

export type ExternalDiagnosis = z.output<typeof diagnosisSchema>;

export type ParsedDiagnosis = { ok: true; diagnosis: ExternalDiagnosis } | { ok: false; problem: string };

/** The JSON value of an answer text (see parseDiagnosis), or what is wrong with it. */
export function answerObject(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  const unfenced = text
    .trim()
    .replace(/^```(?:json)?\s*\n([\s\S]*?)\n```$/, '$1')
    .trim();
  const candidates = [unfenced, unfenced.split('\n').filter(Boolean).at(-1) ?? ''];
  const value = candidates.map(parseJsonOrUndefined).find((parsed) => parsed !== undefined);
  return value === undefined
    ? { ok: false, problem: unfenced === '' ? 'answered nothing' : 'did not answer a JSON object' }
    : { ok: true, value };
}

/**
 * A diagnostician's answer text: one JSON object — a command's last non-empty stdout line (so
 * it may log before it), or a model's whole reply, which may come inside a ``` fence.
 */
export function parseDiagnosis(text: string): ParsedDiagnosis {
  const answer = answerObject(text);
  if (!answer.ok) return answer;
  const parsed = diagnosisSchema.safeParse(answer.value);
  if (parsed.success) return { ok: true, diagnosis: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { ok: false, problem: `answered with a bad "${issue.path.join('.') || '(root)'}": ${issue.message}` };
}
