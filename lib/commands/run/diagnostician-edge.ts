import type { Config } from '../../core/config/config.ts';
import { chooseDiagnostician } from '../../core/config/diagnostician-choice.ts';
import type { Redactor } from '../../core/redact/redact.ts';
import type { Consult } from '../../supervise/ports.ts';
import type { EvidencePacket } from '../../core/incident/evidence-packet.ts';
import type { ParsedDiagnosis } from '../../core/incident/diagnosis-schema.ts';

/**
 * The configured diagnostician as the run's Consult port, or none for the rules. The packet is
 * redacted here, the last step before it leaves the process; the model key is read from the
 * environment at the call and goes nowhere but the request's auth header. The clients load
 * only when an incident is put to them (not on `deadman run`'s start-up path).
 */
export function consultFor(
  diagnose: Config['diagnose'],
  redactor: Redactor,
  env: NodeJS.ProcessEnv = process.env,
): Consult | undefined {
  const ask = askerFor(diagnose, redactor, env);
  // Its guidance goes into an agent's prompt: redacted like everything deadman passes on.
  return (
    ask &&
    Object.assign(async (packet: EvidencePacket) => redactedGuidance(await ask(packet), redactor), {
      signals: diagnose.signals,
    })
  );
}

function askerFor(
  diagnose: Config['diagnose'],
  redactor: Redactor,
  env: NodeJS.ProcessEnv,
): ((packet: EvidencePacket) => Promise<ParsedDiagnosis>) | undefined {
  const choice = chooseDiagnostician(diagnose);
  switch (choice.kind) {
    case 'rules':
      return undefined;
    case 'command':
      return async (packet) =>
        (await import('../../io/incident/diagnostician.ts')).askDiagnostician(
          choice.argv,
          diagnose.timeout,
          redactor.value(packet),
        );
    case 'openai':
    case 'anthropic':
      return async (packet) =>
        (await import('../../io/incident/model-diagnostician.ts')).askModel(
          choice,
          env,
          diagnose.timeout,
          redactor.value(packet),
        );
  }
}

function redactedGuidance(answer: ParsedDiagnosis, redactor: Redactor): ParsedDiagnosis {
  if (!answer.ok || answer.diagnosis.guidance === null) return answer;
  return { ok: true, diagnosis: { ...answer.diagnosis, guidance: redactor.text(answer.diagnosis.guidance) } };
}
