import type { Diagnosis } from './default-diagnosis.ts';
import type { RecoveryAction, SignalKind } from './kinds.ts';
import type { ExternalDiagnosis } from './diagnosis-schema.ts';
import { signalRow } from '../signals/registry.ts';

/**
 * An external diagnostician answers in the diagnosis contract (diagnosis-schema.ts). It can
 * never widen what deadman does: its classification must be the open signal, every evidence id
 * it cites must be one of the packet's, and its action must be one the signal allows; else the
 * rules decide, and the reason is recorded. For a hung descendant that means "kill it" or
 * "leave it to a person"; for a repeated failure, no progress or a session over budget it is
 * "resume (or respawn) with guidance", "leave it" or "halt"; whole-run stalls are not put to it,
 * since only the stall policy (a restart) can help there. Halting stops the run for good
 * (exit 69). What each kind allows is its row's `consult` (lib/core/signals); which signals go
 * to it at all is `diagnose.signals` (a hung process by default).
 * Its `guidance`, cut to GUIDANCE_CHARS, goes into the resume prompt or the handoff. Policy
 * still checks what comes out. Pure.
 */

/** Per consulted signal (its row's `consult`): each contract action it allows, and the deadman action it becomes. */
function allowed(
  kind: SignalKind,
): Partial<Record<ExternalDiagnosis['recommended_action'], RecoveryAction>> | undefined {
  return signalRow(kind)?.consult;
}

/** The diagnostician's guidance as the agent gets it: one bounded paragraph. */
export const GUIDANCE_CHARS = 1_000;

/** `optedIn`: the run's `diagnose.signals`. */
export function consultsDiagnostician(kind: SignalKind, optedIn: readonly string[]): boolean {
  return allowed(kind) !== undefined && optedIn.includes(kind);
}

export function allowedActions(kind: SignalKind): string[] {
  return Object.keys(allowed(kind) ?? {});
}

export type Reconciled = { diagnosis: Diagnosis; refused: null } | { diagnosis: Diagnosis; refused: string };

/** The recommendation deadman goes on with: the external one when it holds up, else the rules' with the reason. */
export function reconcile(
  kind: SignalKind,
  rules: Diagnosis,
  external: ExternalDiagnosis,
  packetIds: ReadonlySet<string>,
): Reconciled {
  const refuse = (why: string): Reconciled => ({ diagnosis: rules, refused: `${why}; the rules decide` });
  if (external.classification !== kind)
    return refuse(`classified the incident as ${external.classification}, but the open signal is ${kind}`);
  const unknown = external.evidence_ids.filter((id) => !packetIds.has(id));
  if (unknown.length) return refuse(`cited evidence not in the packet (${unknown.join(', ')})`);
  const action = allowed(kind)?.[external.recommended_action];
  if (action === undefined)
    return refuse(
      `${external.recommended_action} is not an action for ${kind} (allowed: ${allowedActions(kind).join(', ')})`,
    );
  if (external.requires_human_approval && action !== 'REPORT') {
    return {
      diagnosis: {
        action: 'REPORT',
        rationale: `${external.rationale} (the diagnostician asks a person to approve ${external.recommended_action})`,
      },
      refused: null,
    };
  }
  const guidance = external.guidance?.trim() ? { guidance: external.guidance.trim().slice(0, GUIDANCE_CHARS) } : {};
  return { diagnosis: { action, rationale: external.rationale, ...guidance }, refused: null };
}
