import type { Config } from '../../core/config/config.ts';
import { chooseDiagnostician } from '../../core/config/diagnostician-choice.ts';
import { parsePlanAnswer, PLAN_INSTRUCTIONS, type ParsedPlan } from '../../core/claims/model-plan.ts';
import type { Redactor } from '../../core/redact/redact.ts';

/**
 * Asks the configured diagnostician (command, OpenAI-compatible, Anthropic) once for a plan for
 * a refused claim, through the same edges as a diagnosis. Null when the rules are configured
 * (no diagnostician to ask). The question is redacted before it leaves the process; the key is
 * read from the environment at the call.
 */
export async function askForPlan(
  diagnose: Config['diagnose'],
  redactor: Redactor,
  question: object,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ParsedPlan | null> {
  const choice = chooseDiagnostician(diagnose);
  const packet = redactor.value(question);
  switch (choice.kind) {
    case 'rules':
      return null;
    case 'command': {
      const answer = await (
        await import('../incident/diagnostician.ts')
      ).askCommandText(choice.argv, diagnose.timeout, packet);
      return answer.ok ? parsePlanAnswer(answer.text) : answer;
    }
    case 'openai':
    case 'anthropic': {
      const { askModelText } = await import('../incident/model-diagnostician.ts');
      const answer = await askModelText(choice, env, diagnose.timeout, PLAN_INSTRUCTIONS, JSON.stringify(packet));
      return answer.ok ? parsePlanAnswer(answer.text) : answer;
    }
  }
}
