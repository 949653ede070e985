import type { Diagnosis } from './diagnose-rules.ts';
import type { RecoveryAction, SignalKind } from './kinds.ts';
import type { ExternalDiagnosis } from './diagnosis-schema.ts';

/**
 * An external diagnostician (`[diagnose] command`, e.g. a script that asks a model) answers
 * with one typed recommendation. It can never widen what deadman does: its action must be one
 * the signal allows, and policy still checks it. For a hung descendant that means "kill it"
 * or "leave it to a person"; whole-run stalls are not put to it, since only the stall policy
 * (a restart) can help there.
 */

const ALLOWED: Partial<Record<SignalKind, readonly RecoveryAction[]>> = {
  HUNG_PROCESS: ['TERMINATE_DESCENDANT_PROCESS', 'REPORT'],
};

export function consultsDiagnostician(kind: SignalKind): boolean {
  return ALLOWED[kind] !== undefined;
}

/** The recommendation deadman goes on with: the external one when the signal allows it, else the rules'. */
export function reconcile(kind: SignalKind, rules: Diagnosis, external: ExternalDiagnosis | null): { diagnosis: Diagnosis; refused: string | null } {
  if (external === null) return { diagnosis: rules, refused: null };
  if (!ALLOWED[kind]?.includes(external.action)) {
    return { diagnosis: rules, refused: `${external.action} is not an action for ${kind}; the rules decide` };
  }
  return { diagnosis: { action: external.action, rationale: external.rationale }, refused: null };
}
