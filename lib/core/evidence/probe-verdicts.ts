import type { CommandClaim, HttpClaim } from '../config/config.ts';
import { formatDuration } from '../time/duration.ts';
import { baseName } from '../config/path-scope.ts';
import { compileRegex, type Verdict, type VerdictState } from './evidence.ts';

/**
 * Verdicts on the claims deadman checks by asking something (a bounded command, an HTTP GET):
 * the outcome the io side reports, judged like a file's facts in evidence.ts.
 */

/** How a bounded command ended (see io/process/bounded-run.ts). */
export type CommandOutcome =
  | { kind: 'exited'; code: number; stdout: string; stderr: string }
  | { kind: 'signaled'; signal: string; stdout: string; stderr: string }
  | { kind: 'timed-out'; afterMs: number; stdout: string; stderr: string }
  | { kind: 'not-started'; error: string };

export function judgeCommand(claim: CommandClaim, name: string, outcome: CommandOutcome): Verdict {
  const verdict = (state: VerdictState, reason: string): Verdict => ({
    claim: name,
    kind: 'command',
    verdict: state,
    reason,
  });
  const program = baseName(claim.command[0]!);
  switch (outcome.kind) {
    case 'not-started':
      return verdict('unknown', `cannot run ${claim.command[0]}: ${outcome.error}`);
    case 'timed-out':
      return verdict('unknown', `${program} timed out after ${formatDuration(outcome.afterMs)}`);
    case 'signaled':
      return verdict('unknown', `${program} was killed by ${outcome.signal}`);
    case 'exited':
      break;
  }
  if (outcome.code !== 0) {
    const why = lastLine(outcome.stderr) || lastLine(outcome.stdout);
    return verdict('dead', `${program} exited ${outcome.code}${why ? `: ${why}` : ''}`);
  }
  if (claim.stdout_matches !== undefined) {
    const regex = compileRegex(claim.stdout_matches);
    if (typeof regex === 'string') return verdict('unknown', `stdout_matches ${regex}`);
    if (!regex.test(outcome.stdout))
      return verdict('dead', `${program} output does not match /${claim.stdout_matches}/`);
  }
  return verdict('alive', `${program} exited 0`);
}

/** What a GET returned (see io/evidence/evidence.ts); `body` is bounded. */
export type HttpOutcome =
  | { kind: 'response'; status: number; body: string }
  | { kind: 'timed-out'; afterMs: number }
  | { kind: 'failed'; error: string };

export function judgeHttp(claim: HttpClaim, name: string, outcome: HttpOutcome): Verdict {
  const verdict = (state: VerdictState, reason: string): Verdict => ({
    claim: name,
    kind: 'http',
    verdict: state,
    reason,
  });
  const request = `GET ${claim.url}`;
  if (outcome.kind === 'failed') return verdict('unknown', `${request} failed: ${outcome.error}`);
  if (outcome.kind === 'timed-out')
    return verdict('unknown', `${request} timed out after ${formatDuration(outcome.afterMs)}`);
  const [low, high] = statusRange(claim.status);
  if (outcome.status < low || outcome.status > high) {
    return verdict('dead', `${request} returned ${outcome.status} (expected ${claim.status})`);
  }
  if (claim.body_matches !== undefined) {
    const regex = compileRegex(claim.body_matches);
    if (typeof regex === 'string') return verdict('unknown', `body_matches ${regex}`);
    if (!regex.test(outcome.body))
      return verdict(
        'dead',
        `${request} returned ${outcome.status} but its body does not match /${claim.body_matches}/`,
      );
  }
  return verdict('alive', `${request} returned ${outcome.status}`);
}

/** `"200"` → [200, 200]; `"200-299"` → [200, 299]. The config schema guarantees the shape. */
export function statusRange(text: string): [number, number] {
  const [low, high = low] = text.split('-').map(Number);
  return [low!, high!];
}

export function lastLine(text: string): string {
  const line = text.trimEnd().split('\n').pop()?.trim() ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
