import { allowedActions, consultsDiagnostician, reconcile } from '../../core/incident/diagnosis.ts';
import { DEFAULT_CONFIG } from '../../core/config/defaults.ts';
import { diagnose, type Diagnosis } from '../../core/incident/default-diagnosis.ts';
import { buildEvidencePacket, evidenceIds, type SignalEvidenceFacts } from '../../core/incident/evidence-packet.ts';
import type { SignalKind } from '../../core/incident/kinds.ts';
import type { Logger } from '../ports.ts';
import type { Incident } from '../record-types.ts';
import type { Consult, RunRecorder } from '../ports.ts';

/**
 * The diagnose step: the deterministic rules always, then — when configured and when the
 * signal allows a choice — one call to the external diagnostician with the incident's evidence
 * packet. Its answer is recorded in full and reconciled with the rules; a failure, a late or
 * invalid answer, or one outside the evidence is recorded with its reason and the rules decide.
 * The result is still only a recommendation: policy decides.
 */
export async function diagnoseIncident(
  kind: SignalKind,
  incident: Incident,
  evidence: SignalEvidenceFacts,
  deps: { records: Pick<RunRecorder, 'diagnosis'>; logger: Logger; consult?: Consult | undefined },
): Promise<Diagnosis> {
  const rules = diagnose(kind);
  deps.records.diagnosis(incident, rules, 'rules');
  if (!deps.consult || !consultsDiagnostician(kind, deps.consult.signals ?? DEFAULT_CONFIG.diagnose.signals))
    return rules;
  const packet = buildEvidencePacket({
    kind,
    message: incident.message,
    allowedActions: allowedActions(kind),
    ...evidence,
  });
  const answer = await deps.consult(packet);
  if (!answer.ok) {
    deps.records.diagnosis(
      incident,
      { action: 'none', rationale: `diagnostician ${answer.problem}` },
      'external-refused',
    );
    deps.logger.log('warn', `diagnostician ${answer.problem}; the rules decide`);
    return rules;
  }
  const reconciled = reconcile(kind, rules, answer.diagnosis, evidenceIds(packet));
  const said = { action: answer.diagnosis.recommended_action, rationale: answer.diagnosis.rationale };
  if (reconciled.refused !== null) {
    deps.records.diagnosis(
      incident,
      { action: said.action, rationale: `diagnostician ${reconciled.refused}` },
      'external-refused',
      answer.diagnosis,
    );
    deps.logger.log('warn', `diagnostician ${reconciled.refused}`);
    return rules;
  }
  deps.records.diagnosis(incident, said, 'external', answer.diagnosis);
  deps.logger.log('notice', `diagnostician recommends ${said.action}: ${said.rationale}`);
  return reconciled.diagnosis;
}

/** The signal as the resumed agent or the handoff gets it: the rules' guidance, then the diagnostician's. */
export function withGuidance<S extends { message: string; guidance?: string | undefined }>(
  signal: S,
  diagnosis: Diagnosis,
): S {
  if (!diagnosis.guidance) return signal;
  return {
    ...signal,
    guidance: `${signal.guidance ?? signal.message}\n\nThe diagnostician adds: ${diagnosis.guidance}`,
  };
}
