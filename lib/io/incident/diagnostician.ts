import type { ParsedDiagnosis } from '../../core/incident/diagnosis-schema.ts';
import { runBounded } from '../process/bounded-run.ts';

/**
 * Runs the configured diagnostician command with the incident's evidence packet as JSON on
 * stdin, bounded by its timeout; its last stdout line is the diagnosis contract. Any failure (cannot start, times out, exits non-zero, bad answer) is a problem
 * line, and the deterministic rules decide as if it were not configured.
 */
export async function askDiagnostician(
  command: readonly string[],
  timeoutMs: number,
  packet: object,
): Promise<ParsedDiagnosis> {
  const answer = await askCommandText(command, timeoutMs, packet);
  if (!answer.ok) return answer;
  const { parseDiagnosis } = await import('../../core/incident/diagnosis-schema.ts');
  return parseDiagnosis(answer.text);
}

/** The command's stdout for `input` (JSON on stdin), or the problem line. */
export async function askCommandText(
  command: readonly string[],
  timeoutMs: number,
  input: object,
): Promise<AnswerText> {
  const outcome = await runBounded({
    argv: command,
    timeoutMs,
    input: `${JSON.stringify(input)}\n`,
    maxOutputBytes: 16 * 1024,
  });
  if (outcome.kind === 'not-started') return { ok: false, problem: `could not start: ${outcome.error}` };
  if (outcome.kind === 'timed-out')
    return { ok: false, problem: `gave no answer within ${Math.round(timeoutMs / 1000)}s` };
  if (outcome.kind === 'signaled') return { ok: false, problem: `was killed by ${outcome.signal}` };
  if (outcome.code !== 0) return { ok: false, problem: `exited ${outcome.code}` };
  return { ok: true, text: outcome.stdout };
}

/** A diagnostician's answer as text, before its contract is checked; or why there is none. */
export type AnswerText = { ok: true; text: string } | { ok: false; problem: string };
