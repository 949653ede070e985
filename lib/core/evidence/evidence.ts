import type { Claim, FileClaim } from '../config/config.ts';
import { formatAge } from '../time/duration.ts';
import { baseName, checkPathScope } from '../config/path-scope.ts';
import { localDate, startOfDay } from '../time/day-start.ts';

/**
 * Verdicts on evidence claims, from plain facts the io side gathered and the wall-clock `now`.
 * `unknown` means the check itself failed (permission denied, timeout, bad regex): it needs
 * attention like `dead` and is never reported as alive, because a watcher that fails open is
 * worse than none.
 */

export type VerdictState = 'alive' | 'dead' | 'unknown';

export interface Verdict {
  claim: string;
  /** `duration`: the job's last run judged by min_duration/max_duration (run-duration.ts). */
  kind: Claim['kind'] | 'duration';
  verdict: VerdictState;
  reason: string;
}

/** An mtime further ahead than this is a clock problem, never a fresh file. */
export const FUTURE_TOLERANCE_MS = 5 * 60_000;

/** A claim's name: its `name`, else its kind and 1-based position (`file-1`), unique per list. */
export function claimName(claim: Claim, index: number): string {
  return claim.name ?? `${claim.kind}-${index + 1}`;
}

/** The verdicts of one `[jobs.NAME]`: its claims and their combined state. */
export interface JobVerdict {
  job: string;
  verdict: VerdictState;
  claims: Verdict[];
}

/** Dead and unknown both need attention; only alive does not. */
export function needsAttention(item: { verdict: VerdictState }): boolean {
  return item.verdict !== 'alive';
}

/** The state of a set of claims (a job): dead when any is dead (a certain failure), else unknown when any is, else alive. */
export function combinedState(verdicts: readonly { verdict: VerdictState }[]): VerdictState {
  if (verdicts.some((v) => v.verdict === 'dead')) return 'dead';
  return verdicts.some((v) => v.verdict === 'unknown') ? 'unknown' : 'alive';
}

export interface Summary {
  checked: number;
  dead: number;
  unknown: number;
  alive: number;
  needsAttention: boolean;
  /** `4 checked | 2 green and dead | 2 alive`; `| N unknown` appears only when N > 0. */
  line: string;
}

/** Counts verdicts (of claims, or of jobs via `combinedState`); unknown is its own count, never alive. */
export function summarize(items: readonly { verdict: VerdictState }[]): Summary {
  const count = (state: VerdictState) => items.filter((i) => i.verdict === state).length;
  const [dead, unknown, alive] = [count('dead'), count('unknown'), count('alive')];
  const parts = [
    `${items.length} checked`,
    `${dead} green and dead`,
    ...(unknown > 0 ? [`${unknown} unknown`] : []),
    `${alive} alive`,
  ];
  return { checked: items.length, dead, unknown, alive, needsAttention: dead + unknown > 0, line: parts.join(' | ') };
}

/** One path a file claim looked at (the `path`, or one glob match). */
export type Candidate =
  | { path: string; state: 'missing' }
  | { path: string; state: 'error'; error: string }
  | { path: string; state: 'present'; resolved: string; isFile: boolean; size: number; mtimeMs: number };

export type PresentFile = Extract<Candidate, { state: 'present' }>;

/** The file a claim is judged by, or why there is none. */
export type EvidenceChoice = { file: PresentFile } | { file: null; verdict: 'dead' | 'unknown'; reason: string };

/**
 * Picks the file that stands as evidence: the `path`, or for a glob the newest in-scope regular
 * file. A match that escapes the root is never used; it is named only when nothing else matched.
 */
export function chooseEvidence(
  claim: FileClaim,
  candidates: readonly Candidate[],
  resolvedRoot: string,
): EvidenceChoice {
  const failed = candidates.find((c) => c.state === 'error');
  if (failed) return { file: null, verdict: 'unknown', reason: `cannot inspect ${failed.path}: ${failed.error}` };
  let escape: string | null = null;
  let newest: PresentFile | null = null;
  for (const candidate of candidates) {
    if (candidate.state !== 'present') continue;
    const scope = checkPathScope({
      root: claim.root,
      path: candidate.path,
      resolvedRoot,
      resolvedPath: candidate.resolved,
    });
    if (!scope.inside) {
      escape ??= scope.reason;
      continue;
    }
    if (claim.path !== undefined && !candidate.isFile)
      return { file: null, verdict: 'dead', reason: `${candidate.path} is not a regular file` };
    if (candidate.isFile && (newest === null || isNewer(candidate, newest))) newest = candidate;
  }
  if (newest) return { file: newest };
  if (escape !== null) return { file: null, verdict: 'dead', reason: escape };
  if (claim.path !== undefined) return { file: null, verdict: 'dead', reason: `${claim.path} does not exist` };
  return { file: null, verdict: 'dead', reason: `no file matches ${claim.glob}` };
}

function isNewer(a: PresentFile, b: PresentFile): boolean {
  return a.mtimeMs > b.mtimeMs || (a.mtimeMs === b.mtimeMs && a.path > b.path);
}

/** What was read of the chosen file for `min_lines` / `contains`: all of it, or its head and tail. */
export interface FileSample {
  head: string;
  /** Null when `head` holds the whole file. */
  tail: string | null;
}

/** Whether judging the claim needs a sample of the file's text. */
export function wantsSample(claim: FileClaim): boolean {
  return claim.min_lines !== undefined || claim.contains !== undefined || claim.header !== undefined;
}

/**
 * Judges the chosen file; `sample` is needed only when `wantsSample`. `now` and `timeZone` are
 * the clock and zone of the machine that holds the files ("today" is its day).
 */
export function judgeFile(
  claim: FileClaim,
  name: string,
  choice: EvidenceChoice,
  sample: FileSample | null,
  now: number,
  timeZone = 'UTC',
): Verdict {
  const verdict = (state: VerdictState, reason: string): Verdict => ({
    claim: name,
    kind: 'file',
    verdict: state,
    reason,
  });
  if (choice.file === null) return verdict(choice.verdict, choice.reason);
  const file = choice.file;
  const label = baseName(file.path);
  if (claim.non_empty && file.size === 0) return verdict('dead', `${label} is 0 bytes`);
  if (claim.min_bytes !== undefined && file.size < claim.min_bytes) {
    return verdict('dead', `${label} is ${file.size} bytes (expected at least ${claim.min_bytes})`);
  }
  const age = now - file.mtimeMs;
  if (-age > FUTURE_TOLERANCE_MS) {
    return verdict('unknown', `${label} has a modification time ${formatAge(-age)} in the future; check the clocks`);
  }
  if (claim.max_age !== undefined && claim.max_age > 0 && age > claim.max_age)
    return verdict('dead', `${label} is ${formatAge(age)} stale`);
  if (claim.modified_today && file.mtimeMs < startOfDay(now, claim.time_zone ?? timeZone)) {
    return verdict(
      'dead',
      `${label} was last modified on ${localDate(file.mtimeMs, claim.time_zone ?? timeZone)}, not today (${claim.time_zone ?? timeZone})`,
    );
  }
  const headerProblem = claim.header === undefined ? null : judgeHeader(claim.header, label, sample);
  if (headerProblem !== null) return verdict(headerProblem.verdict, headerProblem.reason);
  const partial = sample !== null && sample.tail !== null ? ' in its first and last 1 MiB' : '';
  if (claim.min_lines !== undefined) {
    if (sample === null) return verdict('unknown', `${label} was not read to count its lines`);
    const lines = countLines(sample);
    if (lines < claim.min_lines) {
      return sample.tail === null
        ? verdict('dead', `${label} has ${lines} lines (expected at least ${claim.min_lines})`)
        : verdict(
            'unknown',
            `${label} is too large to count all lines (${lines}${partial}; expected at least ${claim.min_lines})`,
          );
    }
  }
  if (claim.contains !== undefined) {
    const regex = compileRegex(claim.contains);
    if (typeof regex === 'string') return verdict('unknown', `contains ${regex}`);
    if (sample === null) return verdict('unknown', `${label} was not read to search for /${claim.contains}/`);
    const found = regex.test(sample.head) || (sample.tail !== null && regex.test(sample.tail));
    if (!found) return verdict('dead', `${label} does not contain /${claim.contains}/${partial}`);
  }
  return verdict(
    'alive',
    `${label}: ${file.size} bytes, modified ${age < 1000 ? 'just now' : `${formatAge(age)} ago`}`,
  );
}

function judgeHeader(
  header: string,
  label: string,
  sample: FileSample | null,
): { verdict: VerdictState; reason: string } | null {
  if (sample === null) return { verdict: 'unknown', reason: `${label} was not read to check its header` };
  const first = sample.head.split('\n', 1)[0]!.replace(/\r$/, '');
  if (first.startsWith(header)) return null;
  const shown = first.length > 80 ? `${first.slice(0, 79)}…` : first;
  return {
    verdict: 'dead',
    reason: `${label} does not start with the header ${JSON.stringify(header)} (its first line: ${JSON.stringify(shown)})`,
  };
}

/** Lines in the sample: exact for a whole file (a last line without newline counts), a floor otherwise. */
export function countLines(sample: FileSample): number {
  const newlines = (text: string) => {
    let count = 0;
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
    return count;
  };
  if (sample.tail !== null) return newlines(sample.head) + newlines(sample.tail);
  return newlines(sample.head) + (sample.head !== '' && !sample.head.endsWith('\n') ? 1 : 0);
}

/** Regexes are multi-line (`^`/`$` match at each line); a bad one is reported, never thrown. */
export function compileRegex(source: string): RegExp | string {
  try {
    return new RegExp(source, 'm');
  } catch (error) {
    return `/${source}/ is not a valid regular expression (${(error as Error).message})`;
  }
}
