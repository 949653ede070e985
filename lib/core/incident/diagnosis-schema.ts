import { z } from 'zod';

/**
 * What an external diagnostician must print: one JSON object with one typed action and why.
 * Loaded only when a diagnostician answers (zod is not on `deadman run`'s start-up path).
 */
export const diagnosisSchema = z.strictObject({
  action: z.enum(['TERMINATE_DESCENDANT_PROCESS', 'STALL_POLICY', 'REPORT']),
  rationale: z.string().min(1).max(2000),
});

export type ExternalDiagnosis = z.output<typeof diagnosisSchema>;

export type ParsedDiagnosis = { ok: true; diagnosis: ExternalDiagnosis } | { ok: false; problem: string };

/** The diagnostician's stdout: one JSON object (the last non-empty line, so it may log before it). */
export function parseDiagnosis(stdout: string): ParsedDiagnosis {
  const line = stdout.trim().split('\n').filter(Boolean).at(-1) ?? '';
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, problem: line === '' ? 'printed nothing' : 'did not print a JSON object' };
  }
  const parsed = diagnosisSchema.safeParse(value);
  if (parsed.success) return { ok: true, diagnosis: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { ok: false, problem: `answered with a bad "${issue.path.join('.') || '(root)'}": ${issue.message}` };
}

