import type { ParsedDiagnosis } from '../../core/incident/diagnosis-schema.ts';
import { runBounded } from '../process/bounded-run.ts';

/**
 * Runs the configured diagnostician command with the incident's evidence packet as JSON on
 * stdin, bounded by its timeout; its last stdout line is the diagnosis contract. Any failure (cannot start, times out, exits non-zero, bad answer) is a problem
 * line, and the deterministic rules decide as if it were not configured.
 */
export async function askDiagnostician(command: readonly string[], timeoutMs: number, packet: object): Promise<ParsedDiagnosis> {
  const outcome = await runBounded({ argv: command, timeoutMs, input: `${JSON.stringify(packet)}\n`, maxOutputBytes: 16 * 1024 });
  if (outcome.kind === 'not-started') return { ok: false, problem: `could not start: ${outcome.error}` };
  if (outcome.kind === 'timed-out') return { ok: false, problem: `gave no answer within ${Math.round(timeoutMs / 1000)}s` };
  if (outcome.kind === 'signaled') return { ok: false, problem: `was killed by ${outcome.signal}` };
  if (outcome.code !== 0) return { ok: false, problem: `exited ${outcome.code}` };
  const { parseDiagnosis } = await import('../../core/incident/diagnosis-schema.ts');
  return parseDiagnosis(outcome.stdout);
}
