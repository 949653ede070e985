import { formatArgv } from '../process/format-argv.ts';
import { formatDuration } from '../time/duration.ts';
import { needsAttention, type JobVerdict, type Summary } from './evidence.ts';
import type { CommandOutcome } from './probe-verdicts.ts';
import type { RefusedJob } from '../config/job-refusals.ts';

/**
 * What `deadman check` prints: a block per job that needs attention, one quiet line per healthy
 * job with -v, and the summary; or one JSON document. Pure: the command writes the lines.
 */

const INDENT = ' '.repeat(7);
const LABEL = { dead: 'DEAD   ', unknown: 'UNKNOWN ', alive: 'alive  ' } as const;

/**
 * `DEAD   nightly-export` / `       export-2026-09-10.csv is 0 bytes` /
 * `       fix: /bin/nightly-export   (needs approval)`. A healthy job gets its one quiet line;
 * the caller decides whether to print it. Only dead jobs offer their rerun: when the check
 * itself failed (unknown), rerunning the job is not known to help.
 */
export function jobBlock(result: JobVerdict, rerun: readonly string[] | null): string[] {
  const lines = [`${LABEL[result.verdict]}${result.job}`];
  // One line per distinct reason: a container that cannot be reached makes every claim unknown for the same one.
  const reasons = new Set(result.claims.filter(needsAttention).map((claim) => claim.reason));
  for (const reason of reasons) lines.push(`${INDENT}${reason}`);
  if (result.verdict === 'dead' && rerun !== null) lines.push(`${INDENT}fix: ${displayArgv(rerun)}   (needs approval)`);
  return lines;
}

/** `REFUSED sneaky` and its config problems: a job the check would not judge, never one it passed over in silence. */
export function refusedBlock(refused: RefusedJob): string[] {
  return [`REFUSED ${refused.job}`, ...refused.problems.map(indented)];
}

/** The summary line, with `| N refused` when a job's config was refused (those are not counted as checked). */
export function summaryLine(summary: Summary, refused: number): string {
  return refused > 0 ? `${summary.line} | ${refused} refused` : summary.line;
}

/** The indented line that reports a rerun: how it ended and how long it took. */
export function rerunLine(outcome: CommandOutcome, elapsedMs: number): string {
  const took = `after ${formatDuration(elapsedMs)}`;
  switch (outcome.kind) {
    case 'exited':
      return `${INDENT}rerun exited ${outcome.code} ${took}`;
    case 'signaled':
      return `${INDENT}rerun was killed by ${outcome.signal} ${took}`;
    case 'timed-out':
      return `${INDENT}rerun timed out ${took} and was stopped`;
    case 'not-started':
      return `${INDENT}rerun could not start: ${outcome.error}`;
  }
}

/** One word for the `actions.result` column. */
export function rerunResult(outcome: CommandOutcome): string {
  return outcome.kind === 'exited' ? `exit ${outcome.code}` : outcome.kind;
}

export function indented(text: string): string {
  return `${INDENT}${text}`;
}

/** The `--json` document: the summary and every job with its claims and rerun argv; a refused job with its problems. */
export function checkDocument(
  results: readonly JobVerdict[],
  summary: Summary,
  reruns: Readonly<Record<string, readonly string[] | null>>,
  refused: readonly RefusedJob[] = [],
) {
  return {
    summary: {
      checked: summary.checked,
      dead: summary.dead,
      unknown: summary.unknown,
      alive: summary.alive,
      refused: refused.length,
      needs_attention: summary.needsAttention || refused.length > 0,
    },
    jobs: [
      ...results.map((r) => ({ job: r.job, verdict: r.verdict, rerun: reruns[r.job] ?? null, claims: r.claims })),
      ...refused.map((r) => ({
        job: r.job,
        verdict: 'refused' as const,
        rerun: null,
        claims: [],
        problems: r.problems,
      })),
    ],
  };
}

/** An argv as a person would type it: words with shell-special characters in single quotes. */
export function displayArgv(argv: readonly string[]): string {
  return formatArgv(argv, { quoting: 'shell' });
}
