import { consultsDiagnostician, reconcile } from '../core/incident/diagnosis.ts';
import { diagnose, type Diagnosis } from '../core/incident/diagnose-rules.ts';
import type { SignalKind } from '../core/incident/kinds.ts';
import type { Logger } from '../io/log.ts';
import type { Incident, RunRecords } from './records.ts';
import type { Consult } from './ports.ts';

/**
 * The diagnose step: the deterministic rules always, then — when configured and when the
 * signal allows a choice — the external diagnostician, whose answer is recorded and reconciled
 * with the rules. The result is still only a recommendation: policy decides.
 */
export async function diagnoseIncident(
  kind: SignalKind,
  incident: Incident,
  evidence: object,
  deps: { records: RunRecords; logger: Logger; consult?: Consult | undefined },
): Promise<Diagnosis> {
  const rules = diagnose(kind);
  deps.records.diagnosis(incident, rules, 'rules');
  if (!deps.consult || !consultsDiagnostician(kind)) return rules;
  const answer = await deps.consult({ kind, message: incident.message, ...evidence });
  if (!answer.ok) {
    deps.logger.log('warn', `diagnostician ${answer.problem}; the rules decide`);
    return rules;
  }
  deps.records.diagnosis(incident, answer.diagnosis, 'external');
  const { diagnosis, refused } = reconcile(kind, rules, answer.diagnosis);
  deps.logger.log('notice', refused ? `diagnostician: ${refused}` : `diagnostician recommends ${diagnosis.action}: ${diagnosis.rationale}`);
  return diagnosis;
}
