import type { RecoveryAction, SignalKind } from './kinds.ts';
import { SIGNALS } from '../signals/registry.ts';

/**
 * The deterministic diagnosis: each signal kind has one recommended typed action and the
 * reason for it, in its row (lib/core/signals). An external diagnostician may only narrow this (see diagnosis.ts), and
 * policy still decides.
 */

export interface Diagnosis {
  action: RecoveryAction;
  rationale: string;
  /** An external diagnostician's words for the agent (bounded, redacted): into the resume prompt or the handoff. */
  guidance?: string;
}

export function diagnose(kind: SignalKind): Diagnosis {
  const { action, rationale } = SIGNALS[kind].diagnosis;
  return { action, rationale };
}
