import { z } from 'zod';
import type { Diagnosis, RecoveryAction, SignalKind } from './policy.ts';

/**
 * An external diagnostician (`[diagnose] command`, e.g. a script that asks a model) answers
 * with one typed recommendation. It can never widen what deadman does: its action must be one
 * the signal allows, and policy still checks it. For a hung descendant that means "kill it"
 * or "leave it to a person"; whole-run stalls are not put to it, since only the stall policy
 * (a restart) can help there.
 */

export const diagnosisSchema = z.strictObject({
  action: z.enum(['TERMINATE_DESCENDANT_PROCESS', 'STALL_POLICY', 'REPORT']),
  rationale: z.string().min(1).max(2000),
});

export type ExternalDiagnosis = z.output<typeof diagnosisSchema>;

const ALLOWED: Partial<Record<SignalKind, readonly RecoveryAction[]>> = {
  HUNG_PROCESS: ['TERMINATE_DESCENDANT_PROCESS', 'REPORT'],
};

export function consultsDiagnostician(kind: SignalKind): boolean {
  return ALLOWED[kind] !== undefined;
}

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

/** The recommendation deadman goes on with: the external one when the signal allows it, else the rules'. */
export function reconcile(kind: SignalKind, rules: Diagnosis, external: ExternalDiagnosis | null): { diagnosis: Diagnosis; refused: string | null } {
  if (external === null) return { diagnosis: rules, refused: null };
  if (!ALLOWED[kind]?.includes(external.action)) {
    return { diagnosis: rules, refused: `${external.action} is not an action for ${kind}; the rules decide` };
  }
  return { diagnosis: { action: external.action, rationale: external.rationale }, refused: null };
}
